package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;

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

    @Test
    void childServerProcessesGetTheSameLibthrift() {
        // ServerProcess starts its child JVMs with this class path.
        String classPath = System.getProperty("java.class.path");
        assertThat(classPath).contains("libthrift-" + System.getProperty("expected.libthrift.version") + ".jar");
        assertThat(classPath.split(File.pathSeparator)).filteredOn(entry -> entry.contains("libthrift-")).hasSize(1);
    }
}
