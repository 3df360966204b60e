package dev.grizzlyboot.examples.thriftdemo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;

import org.apache.thrift.TException;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Spring Boot app that serves a Thrift {@code Calculator} ({@link CalculatorHandler}, a
 * {@code @ThriftService} bean) and calls it through the client bean that application.yml defines
 * under {@code grizzly.thrift.clients.calculator}.
 *
 * <p>One command builds it, runs the showcase, prints the results, the health JSON and the Thrift
 * meters, and exits: {@code ./mvnw -q -pl examples/thrift-demo -am -DskipTests verify exec:java}.
 * To keep it running with HTTP on port 8080, add {@code -Dexec.args="--server.port=8080"}.
 */
@SpringBootApplication
public class ThriftDemoApplication {

    public static void main(String[] args) throws TException {
        SpringApplication application = new SpringApplication(ThriftDemoApplication.class);
        // The server and the client both read demo.thrift-port; a free port unless one is given.
        application.setDefaultProperties(Map.of("demo.thrift-port", freePort()));
        ConfigurableApplicationContext context = application.run(args);
        boolean exitAfterShowcase = context.getEnvironment().getProperty("demo.exit-after-showcase", Boolean.class, false);
        Showcase showcase = context.getBean(Showcase.class);
        try {
            print(showcase.run());
        } catch (TException | RuntimeException e) {
            context.close();
            throw e;
        }
        if (exitAfterShowcase) {
            context.close();
            return;
        }
        System.out.println();
        System.out.println("The demo keeps running (Ctrl-C stops it). Thrift on 127.0.0.1:"
                + context.getEnvironment().getProperty("local.grizzly.thrift.port") + "; try:");
        System.out.println("  curl " + showcase.baseUrl() + "/actuator/health");
        System.out.println("  curl " + showcase.baseUrl() + "/actuator/metrics/thrift.server.requests");
    }

    private static void print(Showcase.Report report) {
        System.out.println();
        System.out.println("== thrift demo: the app calls its own Thrift server through the client bean 'calculator' ==");
        for (Showcase.Call call : report.calls()) {
            System.out.printf("%-22s -> %s%n", call.call(), call.result());
        }
        System.out.println();
        System.out.println("== GET /actuator/health ==");
        System.out.println(report.health());
        System.out.println();
        System.out.println("== Thrift meters ==");
        report.meters().forEach(System.out::println);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port for the Thrift server", e);
        }
    }
}
