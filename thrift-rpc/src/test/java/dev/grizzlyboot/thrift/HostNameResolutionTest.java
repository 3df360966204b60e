package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;

import dev.grizzlyboot.testsupport.ChildJvm;
import dev.grizzlyboot.testsupport.HostsFile;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.junit.jupiter.api.Test;

/**
 * A client resolves its server's host name at every connect, not once when it is built: the name
 * moves to another address, or starts resolving, under a running client. The client runs in a
 * child JVM that resolves through the test's hosts file with the JDK's lookup cache off; the
 * servers are in this JVM, one on 127.0.0.1 and one on 127.0.0.2, both on loopback.
 */
class HostNameResolutionTest {
    private static final String NAME = "svc.grizzly.test";
    private static final Duration REPLY = Duration.ofSeconds(10);

    @Test
    void callsFollowTheNameToItsNewAddress() {
        CalculatorHandler first = new CalculatorHandler();
        CalculatorHandler second = new CalculatorHandler();
        try (HostsFile hosts = HostsFile.create();
             ThriftServer serverA = start(first, "127.0.0.1", 0);
             // The same port on another loopback address: what a name moved to a new machine looks like.
             ThriftServer serverB = start(second, "127.0.0.2", serverA.port())) {
            hosts.map(NAME, "127.0.0.1");
            try (ChildJvm client = ChildJvm.start(ResolvingClientMain.class, hosts.jvmOptions(),
                    NAME, Integer.toString(serverA.port()))) {
                assertThat(client.ask("add", REPLY)).isEqualTo("OK 3");
                assertThat(first.calls).hasValue(1);
                assertThat(second.calls).hasValue(0);

                hosts.map(NAME, "127.0.0.2");
                serverA.close();
                // A call may still meet the closed connection to A (it was sent there, and add is not idempotent).
                await().atMost(Duration.ofSeconds(3)).until(() -> client.ask("add", REPLY), equalTo("OK 3"));
                for (int i = 0; i < 3; i++) {
                    assertThat(client.ask("add", REPLY)).isEqualTo("OK 3");
                }
                assertThat(second.calls).hasValue(4);
                assertThat(first.calls).hasValue(1);
            }
        }
    }

    @Test
    void aNameThatDoesNotResolveFailsCallsUntilItDoes() {
        CalculatorHandler handler = new CalculatorHandler();
        try (HostsFile hosts = HostsFile.create();
             ThriftServer server = start(handler, "127.0.0.2", 0);
             ChildJvm client = ChildJvm.start(ResolvingClientMain.class, hosts.jvmOptions(),
                     NAME, Integer.toString(server.port()))) {
            String address = NAME + ":" + server.port();
            assertThat(client.ask("add", REPLY)).isEqualTo("FAILED ThriftTransportFailureException: Thrift call add to "
                    + address + " failed: cannot resolve the host name of " + address + " (the request was not sent)");

            hosts.map(NAME, "127.0.0.2");
            assertThat(client.ask("add", REPLY)).isEqualTo("OK 3");
            assertThat(handler.calls).hasValue(1);
        }
    }

    private static ThriftServer start(CalculatorHandler handler, String host, int port) {
        return ThriftServer.builder(new Calculator.Processor<>(handler)).host(host).port(port).workerThreads(2).build().start();
    }
}
