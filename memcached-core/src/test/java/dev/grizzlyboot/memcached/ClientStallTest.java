package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import dev.grizzlyboot.testsupport.ProcessSignals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A client that was itself stopped (a long GC pause, a starved machine) finds its in-flight calls
 * past their deadline when it runs again. Those timeouts are the client's, not the server's: they
 * must not mark a live server failed (which would route its keys elsewhere and, with the failback
 * flush, empty it for every client once it "comes back").
 */
class ClientStallTest {
    private static final long TIMEOUT_MILLIS = 1000;

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void timeoutsFoundRightAfterTheClientWasStoppedDoNotFailTheServer() throws Exception {
        MemcachedProcess server = memcached.get(0);
        Process client = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), StallingClientMain.class.getName(),
                server.address(), Long.toString(TIMEOUT_MILLIS))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(
                    new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = out.readLine()) != null) {
                    lines.add(line);
                }
            } catch (Exception e) {
                lines.add("READ FAILED " + e);
            }
        });
        reader.start();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> lines.contains("READY"));

            // The server stops answering, then the client stops while its calls are in flight.
            server.pause();
            ProcessSignals.pause(client);
            int before = lines.size();
            // Stopped for longer than the operation timeout: nothing can come out of it meanwhile.
            await().during(Duration.ofMillis(TIMEOUT_MILLIS * 3)).atMost(Duration.ofSeconds(5))
                    .until(() -> lines.size() == before);

            // Running again, its first sweep finds the calls expired; only then does the server come back.
            ProcessSignals.resume(client);
            await().atMost(Duration.ofSeconds(10)).until(() -> lines.contains("TIMEOUT"));
            server.resume();
            long answeredBefore = answered(lines);
            await().atMost(Duration.ofSeconds(30)).until(() -> answered(lines) >= answeredBefore + 1_000);

            OutputStream in = client.getOutputStream();
            in.write("stop\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            await().atMost(Duration.ofSeconds(10)).until(() -> lines.contains("DONE"));
        } finally {
            if (server.isPaused()) {
                server.resume();
            }
            client.destroyForcibly();
            ProcessSignals.awaitExit(client);
            reader.join(5_000);
        }
        assertThat(lines).as("the stopped client's own timeouts").contains("TIMEOUT");
        assertThat(lines).as("server-state changes").noneMatch(line -> line.startsWith("STATE"));
        assertThat(lines).as("errors other than timeouts").noneMatch(line -> line.startsWith("ERROR"));
    }

    private static long answered(List<String> lines) {
        long answered = 0;
        for (String line : lines) {
            if (line.startsWith("ANSWERED ")) {
                answered = Math.max(answered, Long.parseLong(line.substring(9)));
            }
        }
        return answered;
    }
}
