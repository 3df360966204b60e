package dev.grizzlyboot.testsupport;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Finds a {@code python3} for tests that run another implementation written in Python: the first
 * that can import the modules the test needs, the one on the {@code PATH} (perhaps a pyenv one,
 * without Debian's packages) first, then Debian's. Stateless.
 */
public final class Python {

    private Python() {
    }

    /**
     * The command of a {@code python3} that imports every one of {@code modules}.
     *
     * @param missing the message when none does: what the test needs and how to install it
     * @throws IllegalStateException with {@code missing} when no {@code python3} imports them
     */
    public static String withModules(String missing, String... modules) {
        String imports = "import " + String.join(", ", modules);
        for (String candidate : List.of("python3", "/usr/bin/python3")) {
            try {
                Process probe = new ProcessBuilder(candidate, "-c", imports).redirectErrorStream(true).start();
                probe.getInputStream().readAllBytes();
                if (probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0) {
                    return candidate;
                }
            } catch (IOException notThere) {
                // Try the next one.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IllegalStateException(missing);
    }
}
