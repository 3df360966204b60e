package dev.grizzlyboot.memcached.zookeeper;

import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.testsupport.ProcessSignals;

/**
 * Runs {@link SyncMemberMain} in a separate JVM on the test class path and collects its
 * {@code @@} report lines.
 */
final class ChildMember implements AutoCloseable {

    private final Process process;
    private final List<String> reports = new CopyOnWriteArrayList<>();

    private ChildMember(Process process) {
        this.process = process;
        Thread reader = new Thread(this::readReports, "child-member-reader");
        reader.setDaemon(true);
        reader.start();
    }

    static ChildMember start(String connectString, String cluster, String memberId, Duration commitDelay,
            Duration prepareTimeout, Duration sessionTimeout, String servers) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Djava.net.preferIPv4Stack=true",
                "-cp", System.getProperty("java.class.path"), SyncMemberMain.class.getName(), connectString, cluster,
                memberId, Long.toString(commitDelay.toMillis()), Long.toString(prepareTimeout.toMillis()),
                Long.toString(sessionTimeout.toMillis()), servers);
        builder.redirectErrorStream(true);
        return new ChildMember(builder.start());
    }

    /** The words after {@code @@ KIND}, once the child reports such a line (waits up to the deadline). */
    String[] awaitReport(String kind, Duration deadline) {
        await().atMost(deadline).until(() -> find(kind).isPresent());
        return find(kind).orElseThrow().split(" ");
    }

    void kill() {
        process.destroyForcibly();
    }

    /** Suspends the child (SIGSTOP): alive to ZooKeeper until its session times out, but mute. */
    void pause() {
        ProcessSignals.pause(process);
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            process.getOutputStream().close();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    private Optional<String> find(String kind) {
        String prefix = "@@ " + kind + " ";
        return reports.stream().filter(line -> line.startsWith(prefix)).map(line -> line.substring(prefix.length()))
                .findFirst();
    }

    private void readReports() {
        try (BufferedReader reader = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("@@ ")) {
                    reports.add(line);
                }
                if (line.startsWith("@@ ") || line.contains("d.g.m.z.") || line.contains("WARN") || line.contains("ERROR")) {
                    System.out.println("[child] " + line);
                }
            }
        } catch (IOException e) {
            // the child ended
        }
    }
}
