package dev.grizzlyboot.thrift;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.grizzlyboot.testsupport.ProcessSignals;

/**
 * A real {@link dev.grizzlyboot.thrift.server.ThriftServer} in a child JVM ({@link CalculatorServerMain})
 * that a test can kill (SIGKILL), pause (SIGSTOP: alive, sockets open, answering nothing), resume
 * and restart on the same port, as {@code MemcachedProcess} does for memcached. Driven by one test
 * thread.
 */
final class ServerProcess implements AutoCloseable {
    private static final long START_TIMEOUT_SECONDS = 30;

    private Process process;
    private int port;

    private ServerProcess() {
    }

    /** Starts a server on a free port. */
    static ServerProcess start() {
        ServerProcess server = new ServerProcess();
        server.launch(0);
        return server;
    }

    int port() {
        return port;
    }

    String address() {
        return "127.0.0.1:" + port;
    }

    /** SIGKILL: the kernel closes the process's sockets, nothing else happens. */
    void kill() {
        ProcessSignals.kill(process);
    }

    void pause() {
        ProcessSignals.pause(process);
    }

    void resume() {
        ProcessSignals.resume(process);
    }

    /** Kills the server if it runs and starts a new one on the same port. */
    void restart() {
        kill();
        IllegalStateException last = null;
        // The killed server's socket may hold the port for a moment.
        for (int attempt = 0; attempt < 10; attempt++) {
            try {
                launch(port);
                return;
            } catch (IllegalStateException e) {
                last = e;
            }
        }
        throw last;
    }

    @Override
    public void close() {
        // SIGKILL also ends a stopped process.
        kill();
    }

    private void launch(int wantedPort) {
        String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = List.of(java, "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"),
                CalculatorServerMain.class.getName(), Integer.toString(wantedPort));
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + command, e);
        }
        CompletableFuture<Integer> listening = new CompletableFuture<>();
        Deque<String> lastLines = new ArrayDeque<>();
        Process started = process;
        Thread reader = new Thread(() -> readOutput(started, listening, lastLines), "thrift-server-process-output");
        reader.setDaemon(true);
        reader.start();
        try {
            port = listening.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException | ExecutionException e) {
            process.destroyForcibly();
            synchronized (lastLines) {
                throw new IllegalStateException("server did not start: " + String.join(" | ", lastLines), e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException(e);
        }
    }

    /** Reads the child's output to its end, so a full pipe never blocks it, and finds its port. */
    private static void readOutput(Process child, CompletableFuture<Integer> listening, Deque<String> lastLines) {
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(CalculatorServerMain.READY)) {
                    listening.complete(Integer.parseInt(line.substring(CalculatorServerMain.READY.length()).trim()));
                }
                synchronized (lastLines) {
                    lastLines.addLast(line);
                    if (lastLines.size() > 5) {
                        lastLines.removeFirst();
                    }
                }
            }
        } catch (IOException e) {
            listening.completeExceptionally(e);
        }
        listening.completeExceptionally(new IllegalStateException("the server process exited"));
    }
}
