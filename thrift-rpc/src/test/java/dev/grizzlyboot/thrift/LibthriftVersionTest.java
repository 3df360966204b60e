package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.thrift.TProcessor;
import org.junit.jupiter.api.Test;

/**
 * Guards the second surefire run: the suite runs once on the default libthrift and once on the
 * newest, and this proves which jar each run really loaded.
 */
class LibthriftVersionTest {

    @Test
    void runsOnTheExpectedLibthrift() {
        String expected = System.getProperty("expected.libthrift.version");
        String jar = TProcessor.class.getProtectionDomain().getCodeSource().getLocation().getPath();
        assertThat(expected).as("expected.libthrift.version set by the build").isNotBlank();
        assertThat(jar).endsWith("libthrift-" + expected + ".jar");
    }
}
