package dev.grizzlyboot.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * Reads what a child process writes, to its end, on a thread of its own, for tests that run
 * another implementation as a process. Not on the common pool: it has a single thread on two
 * cores, and two readers queued there deadlock once the child fills the second one's pipe.
 */
public final class ProcessOutput {

    private ProcessOutput() {
    }

    /** The UTF-8 text of {@code stream} once the process closes it. */
    public static CompletableFuture<String> readInBackground(InputStream stream) {
        return readInBackground(new InputStreamReader(stream, StandardCharsets.UTF_8));
    }

    /** The rest of {@code reader}'s text once the process closes the stream under it. */
    public static CompletableFuture<String> readInBackground(Reader reader) {
        CompletableFuture<String> text = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            StringWriter read = new StringWriter();
            try {
                reader.transferTo(read);
                text.complete(read.toString());
            } catch (IOException e) {
                text.completeExceptionally(new UncheckedIOException("reading a child process's output failed", e));
            }
        }, "child-process-output");
        thread.setDaemon(true);
        thread.start();
        return text;
    }
}
