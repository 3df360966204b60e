package dev.grizzlyboot.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

/**
 * Kills (SIGKILL), pauses (SIGSTOP) and resumes (SIGCONT) a child process to play a dead or hung
 * server, for any server the tests launch. {@link #kill} and {@link #pause} return only once the
 * process has really exited or stopped. Stateless and thread-safe.
 */
public final class ProcessSignals {

    private ProcessSignals() {
    }

    /** Sends SIGKILL (no shutdown of any kind) and waits for the process to exit. */
    public static void kill(Process process) {
        process.destroyForcibly();
        awaitExit(process);
    }

    /**
     * Waits up to 10 s for the process to exit (after a kill or a SIGTERM).
     *
     * @throws IllegalStateException if it does not
     */
    public static void awaitExit(Process process) {
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("pid " + process.pid() + " did not exit");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for pid " + process.pid() + " to exit", e);
        }
    }

    /**
     * Sends SIGSTOP and waits until every thread of the process is stopped (read from
     * {@code /proc} on Linux; elsewhere it returns once the signal is sent).
     *
     * @throws IllegalStateException if the process is not running or does not stop within 5 s
     */
    public static void pause(Process process) {
        send(process, "STOP");
        awaitAllThreadsStopped(process, Duration.ofSeconds(5));
    }

    /** Sends SIGCONT: a paused process answers everything that queued up meanwhile. */
    public static void resume(Process process) {
        send(process, "CONT");
    }

    private static void send(Process process, String signal) {
        if (!process.isAlive()) {
            throw new IllegalStateException("pid " + process.pid() + " is not running");
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
            if (!kill.waitFor(5, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling pid " + process.pid(), e);
        }
    }

    /** A signal is only pending when kill(2) returns; a thread running on another core stops a moment later. */
    private static void awaitAllThreadsStopped(Process process, Duration limit) {
        Path tasks = Path.of("/proc", Long.toString(process.pid()), "task");
        if (!Files.isDirectory(tasks)) {
            return;
        }
        long deadline = System.nanoTime() + limit.toNanos();
        while (!allStopped(tasks)) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("pid " + process.pid() + " did not stop within " + limit + " after SIGSTOP");
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    private static boolean allStopped(Path tasks) {
        try (Stream<Path> threads = Files.list(tasks)) {
            return threads.allMatch(thread -> {
                try {
                    String stat = Files.readString(thread.resolve("stat"));
                    // "pid (comm) S ...": the state follows the last ')', as comm may hold anything.
                    char state = stat.charAt(stat.lastIndexOf(')') + 2);
                    return state == 'T' || state == 't';
                } catch (IOException e) {
                    return true; // the thread is gone
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
