package dev.grizzlyboot.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/**
 * What the host-name tests of the client modules rely on: a JVM given a {@link HostsFile}'s
 * options sees every change of the file at its next lookup, a failed lookup included (the JDK's
 * own settings would cache one for 10 s).
 */
class HostsFileTest {
    private static final String NAME = "svc.grizzly.test";
    private static final Duration REPLY = Duration.ofSeconds(10);

    @Test
    void aChildJvmSeesEveryChangeAtItsNextLookup() {
        try (HostsFile hosts = HostsFile.create();
             ChildJvm child = ChildJvm.start(ResolveMain.class, hosts.jvmOptions())) {
            assertThat(child.ask(NAME, REPLY)).isEqualTo("UNKNOWN");
            hosts.map(NAME, "127.0.0.1");
            assertThat(child.ask(NAME, REPLY)).isEqualTo("127.0.0.1");
            hosts.map(NAME, "127.0.0.2");
            assertThat(child.ask(NAME, REPLY)).isEqualTo("127.0.0.2");
            hosts.unmap(NAME);
            assertThat(child.ask(NAME, REPLY)).isEqualTo("UNKNOWN");
        }
    }
}
