package dev.grizzlyboot.examples.thriftdemo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The demo's showcase: every call returns its own result through the client bean and the real
 * server, the health JSON has both Thrift contributors UP, and the meters recorded each call with
 * its outcome.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ThriftDemoApplicationTests {

    @DynamicPropertySource
    static void thriftPort(DynamicPropertyRegistry registry) throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = socket.getLocalPort();
            registry.add("demo.thrift-port", () -> port);
        }
    }

    @Autowired
    Showcase showcase;

    @Test
    void showcaseCallsTheServiceAndReportsHealthAndMeters() throws Exception {
        Showcase.Report report = showcase.run();

        assertThat(report.calls()).extracting(Showcase.Call::result).containsExactly(
                "42", "42", "threw the declared DivideByZero(dividend:1)", "sent", "3");
        assertThat(report.health()).contains("\"thriftServer\":{\"details\":{\"listening\":true")
                .contains("\"thriftClients\":{\"details\":{\"calculator\":{\"inRotation\":[\"127.0.0.1:");
        assertThat(report.meters()).anySatisfy(line -> assertThat(line)
                        .startsWith("thrift.client.requests").contains("calculator", "divide declared_exception", "count=1"))
                .anySatisfy(line -> assertThat(line)
                        .startsWith("thrift.server.requests").contains("note success Calculator", "count=3"))
                .anySatisfy(line -> assertThat(line)
                        .startsWith("thrift.client.connections").contains("calculator idle", "value=1"));
    }
}
