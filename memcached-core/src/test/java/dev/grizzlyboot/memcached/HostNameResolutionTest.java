package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;

import dev.grizzlyboot.testsupport.ChildJvm;
import dev.grizzlyboot.testsupport.HostsFile;
import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import org.junit.jupiter.api.Test;

/**
 * A client resolves a server's host name at every connect, not once when it is built: the name
 * moves to another address, or starts resolving, under a running client, which keeps the server's
 * place in the ring (its configured {@code host:port}). The client runs in a child JVM that
 * resolves through the test's hosts file with the JDK's lookup cache off; the memcached processes
 * listen on 127.0.0.1 and 127.0.0.2, and are read directly over the text protocol as the oracle.
 */
class HostNameResolutionTest {
    private static final String NAME = "svc.grizzly.test";
    private static final Duration REPLY = Duration.ofSeconds(10);

    @Test
    void operationsFollowTheNameToItsNewAddress() {
        try (HostsFile hosts = HostsFile.create();
             MemcachedProcess first = MemcachedProcess.start();
             // The same port on another loopback address: what a name moved to a new machine looks like.
             MemcachedProcess second = MemcachedProcess.start(MemcachedOptions.defaults().withHost("127.0.0.2"), first.port())) {
            hosts.map(NAME, first.host());
            try (ChildJvm client = ChildJvm.start(ResolvingClientMain.class, hosts.jvmOptions(), NAME + ":" + first.port())) {
                assertThat(client.ask("set k before", REPLY)).isEqualTo("OK");
                assertThat(first.textCommand("get k")).contains("before");
                assertThat(second.textCommand("get k")).containsExactly("END");

                hosts.map(NAME, second.host());
                first.kill();
                // The first operations may find the lost connection, or the server marked failed until a health check.
                await().atMost(Duration.ofSeconds(3)).until(() -> client.ask("set k after", REPLY), equalTo("OK"));
                assertThat(client.ask("get k", REPLY)).isEqualTo("VALUE after");
                assertThat(second.textCommand("get k")).contains("after");
            }
        }
    }

    @Test
    void aNameThatDoesNotResolveFailsOperationsUntilItDoes() {
        try (HostsFile hosts = HostsFile.create();
             MemcachedProcess server = MemcachedProcess.start(MemcachedOptions.defaults().withHost("127.0.0.2"));
             ChildJvm client = ChildJvm.start(ResolvingClientMain.class, hosts.jvmOptions(), NAME + ":" + server.port())) {
            String address = NAME + ":" + server.port();
            assertThat(client.ask("set k v", REPLY)).startsWith("FAILED MemcachedConnectionException: " + address
                    + " is unreachable (could not connect to " + address + ": cannot resolve the host name " + NAME + ")");

            hosts.map(NAME, server.host());
            await().atMost(Duration.ofSeconds(3)).until(() -> client.ask("set k v", REPLY), equalTo("OK"));
            assertThat(server.textCommand("get k")).contains("v");
        }
    }
}
