package dev.grizzlyboot.autoconfigure.thrift.server;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import dev.grizzlyboot.autoconfigure.thrift.CalculatorHandlerConfiguration;
import dev.grizzlyboot.thrift.server.ThriftServerBindException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A start-up whose Thrift port is taken fails with the analyzer's description and action, as a web
 * server's does (Spring Boot prints them only if it finds the analyzer in {@code META-INF/spring.factories}).
 */
@ExtendWith(OutputCaptureExtension.class)
class ThriftServerPortInUseFailureAnalyzerTests {

    @Test
    void aTakenPortIsExplained(CapturedOutput output) throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            assertThatThrownBy(() -> start(port)).hasCauseInstanceOf(ThriftServerBindException.class);
            assertThat(output).contains("APPLICATION FAILED TO START",
                    "Thrift server failed to start. Port " + port + " was already in use.",
                    "Identify and stop the process that's listening on port " + port,
                    "with 'grizzly.thrift.server.port' (0 picks a free one)");
        }
    }

    private static void start(int port) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.run("--grizzly.thrift.server.host=127.0.0.1", "--grizzly.thrift.server.port=" + port,
                "--spring.main.banner-mode=off");
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(ThriftServerAutoConfiguration.class)
    @Import(CalculatorHandlerConfiguration.class)
    static class App {
    }
}
