package dev.grizzlyboot.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A main class of the test class path run in a JVM of its own and driven line by line: the test
 * {@linkplain #ask asks}, the child answers through {@link #serve}. For what a test cannot change
 * in its own JVM, such as name resolution, which a JVM sets up once ({@link HostsFile}). The child
 * exits when its standard input closes, so a test JVM that dies leaves none behind. Driven by one
 * test thread.
 */
public final class ChildJvm implements AutoCloseable {

    private static final String REPLY = "@@ ";
    private static final int OUTPUT_LINES_KEPT = 10;

    private final Process process;
    private final OutputStream requests;
    /** Replies in order; an empty one once the child's output has ended. */
    private final BlockingQueue<Optional<String>> replies = new LinkedBlockingQueue<>();
    private final Deque<String> lastOutput = new ArrayDeque<>();

    private ChildJvm(Process process) {
        this.process = process;
        this.requests = process.getOutputStream();
        Thread reader = new Thread(this::readOutput, "child-jvm-output");
        reader.setDaemon(true);
        reader.start();
    }

    /**
     * Starts {@code main} with the test's class path, these JVM options (system properties) and
     * arguments.
     */
    public static ChildJvm start(Class<?> main, List<String> jvmOptions, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // Short-lived and small: start fast rather than run fast.
                "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        try {
            return new ChildJvm(new ProcessBuilder(command).redirectErrorStream(true).start());
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + command, e);
        }
    }

    /**
     * Sends one request line and returns the child's reply to it.
     *
     * @throws IllegalStateException if no reply came within {@code deadline} (the child's last output lines tell why)
     */
    public String ask(String request, Duration deadline) {
        try {
            requests.write((request + "\n").getBytes(StandardCharsets.UTF_8));
            requests.flush();
            Optional<String> reply = replies.poll(deadline.toMillis(), TimeUnit.MILLISECONDS);
            if (reply == null || reply.isEmpty()) {
                if (reply != null) {
                    // Kept for the next ask: the child stays gone.
                    replies.add(reply);
                }
                throw new IllegalStateException("no reply to '" + request + "' within " + deadline
                        + (reply == null ? "" : ": the child exited") + "; its last output: " + lastOutput());
            }
            return reply.get();
        } catch (IOException e) {
            throw new UncheckedIOException("could not ask the child '" + request + "'; its last output: " + lastOutput(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the child's reply to '" + request + "'", e);
        }
    }

    /**
     * The child's side: answers each line from standard input with {@code answer}'s one-line
     * reply, until the parent closes it.
     */
    public static void serve(UnaryOperator<String> answer) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String request;
        while ((request = in.readLine()) != null) {
            // An exception's message may span lines; the parent takes one line as the whole reply.
            System.out.println(REPLY + answer.apply(request).replaceAll("[\r\n]+", " "));
            System.out.flush();
        }
    }

    /** Closes the child's standard input, so it exits, and kills it if it has not within 5 s. */
    @Override
    public void close() {
        try {
            requests.close();
        } catch (IOException e) {
            // The pipe is broken: the child is gone already, or is killed below.
        }
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                ProcessSignals.kill(process);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private void readOutput() {
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(REPLY)) {
                    replies.add(Optional.of(line.substring(REPLY.length())));
                } else {
                    synchronized (lastOutput) {
                        lastOutput.addLast(line);
                        if (lastOutput.size() > OUTPUT_LINES_KEPT) {
                            lastOutput.removeFirst();
                        }
                    }
                }
            }
        } catch (IOException e) {
            synchronized (lastOutput) {
                lastOutput.addLast("(reading the child's output failed: " + e + ")");
            }
        }
        replies.add(Optional.empty());
    }

    private String lastOutput() {
        synchronized (lastOutput) {
            return String.join(" | ", lastOutput);
        }
    }
}
