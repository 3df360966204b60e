package dev.grizzlyboot.memcached;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client in a JVM of its own, so that a test can stop the whole process (SIGSTOP) as a long GC
 * pause or a starved machine would. Args: server address, operation timeout in ms. It prints
 * {@code READY} after 500 answered gets, {@code STATE <status>} on every server-state change,
 * {@code TIMEOUT} for every get its sweeper timed out, {@code ANSWERED <n>} every 500 answers, and on the line
 * {@code stop} from standard input {@code DONE} before it exits.
 */
public final class StallingClientMain {
    private static final int THREADS = 4;

    private StallingClientMain() {
    }

    public static void main(String[] args) throws Exception {
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong answered = new AtomicLong();
        ExecutorService callers = Executors.newFixedThreadPool(THREADS);
        try (MemcachedClient client = MemcachedClient.builder().servers(args[0])
                .operationTimeout(Duration.ofMillis(Long.parseLong(args[1]))).build()) {
            client.addServerStateListener(state -> say("STATE " + state.status()));
            client.blocking().set("stall", "value", Duration.ZERO);
            for (int t = 0; t < THREADS; t++) {
                callers.execute(() -> {
                    while (running.get()) {
                        try {
                            // The future, not the blocking call: only the sweeper times it out.
                            client.get("stall").join();
                            long n = answered.incrementAndGet();
                            if (n == 500) {
                                say("READY");
                            }
                            if (n % 500 == 0) {
                                say("ANSWERED " + n);
                            }
                        } catch (CompletionException e) {
                            say(e.getCause() instanceof MemcachedTimeoutException ? "TIMEOUT" : "ERROR " + e.getCause());
                        }
                    }
                });
            }
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null && !line.equals("stop")) {
                // Only "stop" means anything.
            }
            running.set(false);
            callers.shutdown();
            // Closing the client under a call in flight would fail it with "client closed".
            if (!callers.awaitTermination(10, TimeUnit.SECONDS)) {
                say("ERROR callers still running");
            }
        }
        say("DONE");
    }

    private static synchronized void say(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
