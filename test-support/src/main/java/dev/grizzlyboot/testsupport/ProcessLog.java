package dev.grizzlyboot.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The end of a child server process's log, for the message of a failure to start it. */
final class ProcessLog {

    private ProcessLog() {
    }

    /** The last five lines of {@code log} on one line, or why there are none. */
    static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join(" | ", lines.subList(Math.max(0, lines.size() - 5), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
