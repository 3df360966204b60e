package dev.grizzlyboot.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One standalone ZooKeeper server of a chosen release, run from that release's jars in its own JVM
 * on a free loopback port: for version-skew tests, where the ZooKeeper client on the test's class
 * path is newer than the server. Its data lives in a temporary directory removed by
 * {@link #close()}. Not thread-safe: one test starts, uses and closes it.
 */
public final class ZooKeeperProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

    private final Path directory;
    private final Path log;
    private Process process;
    private int port;
    private String version;

    private ZooKeeperProcess(Path directory) {
        this.directory = directory;
        this.log = directory.resolve("zookeeper.log");
    }

    /**
     * Starts {@code org.apache.zookeeper.server.ZooKeeperServerMain} with every jar in {@code jars}
     * (the release's {@code zookeeper} and {@code zookeeper-jute} jars and their runtime
     * dependencies) on a free loopback port, and returns once it answers.
     */
    public static ZooKeeperProcess start(Path jars) {
        ZooKeeperProcess zooKeeper;
        try {
            zooKeeper = new ZooKeeperProcess(Files.createTempDirectory("zookeeper-process"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            zooKeeper.launch(classPath(jars));
            return zooKeeper;
        } catch (IOException e) {
            zooKeeper.close();
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            zooKeeper.close();
            throw e;
        }
    }

    /** The connect string ({@code 127.0.0.1:port}) clients use. */
    public String connectString() {
        return LoopbackPorts.LOOPBACK + ":" + port;
    }

    /** The server's own version, as its {@code srvr} command reports it, such as {@code 3.8.6-<commit>}. */
    public String version() {
        return version;
    }

    /** Kills the server (its data is thrown away, so no orderly shutdown is needed) and removes its data. */
    @Override
    public void close() {
        if (process != null) {
            ProcessSignals.kill(process);
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String classPath(Path jars) throws IOException {
        try (Stream<Path> files = Files.list(jars)) {
            String classPath = files.filter(file -> file.toString().endsWith(".jar")).map(Path::toString)
                    .sorted().collect(Collectors.joining(File.pathSeparator));
            if (classPath.isEmpty()) {
                throw new IllegalArgumentException("no ZooKeeper jars in " + jars);
            }
            return classPath;
        }
    }

    /** Launches on a free port, again on another while the server exits at once (the port was taken meanwhile). */
    private void launch(String classPath) throws IOException {
        String exited = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            port = LoopbackPorts.free();
            exited = launch(classPath, port);
            if (exited == null) {
                return;
            }
        }
        throw new IllegalStateException(exited);
    }

    /** Starts the server and waits until it serves: null then, or why it exited. */
    private String launch(String classPath, int port) throws IOException {
        Path config = directory.resolve("zoo.cfg");
        Files.writeString(config, String.join("\n",
                "tickTime=2000",
                "dataDir=" + directory.resolve("data"),
                "clientPort=" + port,
                "clientPortAddress=" + LoopbackPorts.LOOPBACK,
                "maxSessionTimeout=60000",
                ""));
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        process = new ProcessBuilder(java.toString(), "-Xmx128m", "-Dzookeeper.admin.enableServer=false",
                "-Dzookeeper.4lw.commands.whitelist=srvr", "-cp", classPath,
                "org.apache.zookeeper.server.ZooKeeperServerMain", config.toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                return "ZooKeeper on port " + port + " exited with " + process.exitValue() + ": " + lastLogLines();
            }
            version = serverVersion();
            if (version != null) {
                return null;
            }
            try {
                process.waitFor(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting ZooKeeper", e);
            }
        }
        ProcessSignals.kill(process);
        // A server that listens but does not serve (the srvr command says so) lacks a class: the log has it.
        throw new IllegalStateException("ZooKeeper on port " + port + " did not serve within " + START_TIMEOUT
                + ": " + lastLogLines());
    }

    /** The version from the four-letter command {@code srvr}, or null while the server does not serve yet. */
    private String serverVersion() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(LoopbackPorts.LOOPBACK, port), 500);
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            String reply = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            String prefix = "Zookeeper version: ";
            return reply.lines().filter(line -> line.startsWith(prefix))
                    .map(line -> line.substring(prefix.length()).split(",")[0].trim())
                    .findFirst().orElse(null);
        } catch (IOException e) {
            return null;
        }
    }

    private String lastLogLines() {
        return ProcessLog.tail(log);
    }
}
