package dev.grizzlyboot.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import javax.net.ssl.SSLContext;

/**
 * One real {@code memcached} process on a free loopback port (or a given one), which a test can
 * kill (SIGKILL), pause (SIGSTOP), resume (SIGCONT) and restart on the same port; optionally
 * requiring SASL, serving TLS, speaking binary only or listening on another loopback address than
 * 127.0.0.1 ({@link MemcachedOptions#withSasl}, {@link MemcachedOptions#withTls},
 * {@link MemcachedOptions#withBinaryOnly}, {@link MemcachedOptions#withHost}).
 *
 * <p>Used by the tests of every module and by the examples. Not thread-safe: one test thread
 * drives a process; the process itself may be used by any number of clients.
 */
public final class MemcachedProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(10);

    private final MemcachedOptions options;
    private final Path binary;
    private final Path log;
    private final Path saslConfig;
    private int port;
    private Process process;
    private boolean paused;

    private MemcachedProcess(MemcachedOptions options, Path binary, Path log, Path saslConfig) {
        this.options = options;
        this.binary = binary;
        this.log = log;
        this.saslConfig = saslConfig;
    }

    /** Whether a memcached binary can be found ({@code MEMCACHED_BIN}, the {@code PATH}, the usual places). */
    public static boolean installed() {
        try {
            Executables.memcached();
            return true;
        } catch (MemcachedNotInstalledException e) {
            return false;
        }
    }

    /** Starts memcached with default options (64 MiB, 1 MiB item size) on a free loopback port. */
    public static MemcachedProcess start() {
        return start(MemcachedOptions.defaults());
    }

    /**
     * Starts memcached with the given options on a free loopback port.
     *
     * @throws MemcachedNotInstalledException if no memcached binary is installed
     * @throws SaslNotInstalledException if the options ask for SASL and {@code saslpasswd2} is not installed
     */
    public static MemcachedProcess start(MemcachedOptions options) {
        MemcachedProcess memcached = prepare(options);
        // A free port can be taken by someone else between our probe and memcached's bind: retry on another.
        memcached.launch(5, () -> LoopbackPorts.free(options.host()));
        return memcached;
    }

    /**
     * Starts memcached with the given options on the given port, once: for a second process on
     * another loopback address ({@link MemcachedOptions#withHost}) that shares a first one's port.
     *
     * @throws IllegalStateException if memcached cannot listen there
     * @throws MemcachedNotInstalledException if no memcached binary is installed
     */
    public static MemcachedProcess start(MemcachedOptions options, int port) {
        MemcachedProcess memcached = prepare(options);
        memcached.launch(1, () -> port);
        return memcached;
    }

    private static MemcachedProcess prepare(MemcachedOptions options) {
        Path binary = Executables.memcached();
        Path saslConfig = options.sasl() == null ? null : SaslPasswordDatabase.create(options.sasl());
        Path log;
        try {
            log = Files.createTempFile("memcached-", ".log");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        log.toFile().deleteOnExit();
        return new MemcachedProcess(options, binary, log, saslConfig);
    }

    /** The IPv4 loopback address it listens on: 127.0.0.1 unless {@link MemcachedOptions#withHost} chose another. */
    public String host() {
        return options.host();
    }

    /** The port memcached listens on; it stays the same across {@link #restart()}. */
    public int port() {
        return port;
    }

    /** {@code host:port}, the form client configuration takes. */
    public String address() {
        return host() + ":" + port;
    }

    /** The socket address memcached listens on. */
    public InetSocketAddress socketAddress() {
        return new InetSocketAddress(host(), port);
    }

    /** The operating system's process id of the running memcached (for reading its CPU time from {@code /proc}). */
    public long pid() {
        if (process == null) {
            throw new IllegalStateException("memcached is not running");
        }
        return process.pid();
    }

    /** Whether the process is alive (a paused process is alive). */
    public boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** Whether the process has been stopped with SIGSTOP and not resumed. */
    public boolean isPaused() {
        return paused;
    }

    /** Kills the process with SIGKILL (no shutdown of any kind) and waits for it to exit. */
    public void kill() {
        if (process == null) {
            return;
        }
        ProcessSignals.kill(process);
        paused = false;
    }

    /** Stops the process with SIGTERM and waits for it to exit. */
    public void stop() {
        if (process == null) {
            return;
        }
        if (paused) {
            resume();
        }
        process.destroy();
        ProcessSignals.awaitExit(process);
    }

    /**
     * Sends SIGSTOP: the process keeps its sockets open but stops answering, like a hung server.
     * Returns once every thread of the process is stopped (on Linux, read from {@code /proc}), so a
     * request sent after this call is not answered.
     */
    public void pause() {
        requireRunning();
        ProcessSignals.pause(process);
        paused = true;
    }

    /** Sends SIGCONT to a paused process; it answers everything that queued up meanwhile. */
    public void resume() {
        requireRunning();
        ProcessSignals.resume(process);
        paused = false;
    }

    /** Kills the process if it runs, then starts a fresh (empty) one on the same port. */
    public void restart() {
        kill();
        // The old socket may linger for a moment after SIGKILL; memcached sets SO_REUSEADDR, so few retries are needed.
        launch(20, () -> port);
    }

    /**
     * The seconds a stored key has left before it expires ({@code -1}: no expiry), as memcached's
     * meta command {@code mg <key> t} reports them over the text protocol.
     *
     * @throws IllegalStateException if the key is not stored
     */
    public long remainingTtl(String key) {
        String reply = textCommand("mg " + key + " t").get(0);
        if (!reply.startsWith("HD t")) {
            throw new IllegalStateException("mg " + key + " t answered '" + reply + "'");
        }
        return Long.parseLong(reply.substring("HD t".length()).trim());
    }

    /**
     * Sends one command over memcached's text protocol and returns the response lines, up to and
     * including the line that ends it (END, OK, STORED, HD, EN, VERSION ..., an error, a number).
     * This is a second, independent path to the server, used by tests as an oracle. Over TLS when
     * the process serves TLS (presenting the test client certificate).
     *
     * @throws IllegalStateException if the process requires SASL or speaks binary only (memcached then refuses the text protocol)
     */
    public List<String> textCommand(String command) {
        if (!speaksText()) {
            throw new IllegalStateException(this + " speaks only the binary protocol; use stats() or flushAll()");
        }
        try (Socket socket = openSocket()) {
            OutputStream out = socket.getOutputStream();
            out.write((command + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            List<String> lines = new ArrayList<>();
            boolean valueFollows = false;
            String line;
            while ((line = in.readLine()) != null) {
                lines.add(line);
                if (valueFollows) {
                    return lines;
                }
                if (line.startsWith("VA ")) {
                    valueFollows = true;
                } else if (isLastLine(line)) {
                    return lines;
                }
            }
            throw new IllegalStateException("memcached closed the connection after " + lines + " for: " + command);
        } catch (IOException e) {
            throw new UncheckedIOException("text command '" + command + "' to " + address() + " failed", e);
        }
    }

    /** The server's general statistics, read over the text protocol (the binary one when it refuses text). */
    public Map<String, String> stats() {
        if (!speaksText()) {
            try (Socket socket = openSocket()) {
                return new BinaryOracle(socket, options.sasl()).stats();
            } catch (IOException e) {
                throw new UncheckedIOException("stats from " + address() + " failed", e);
            }
        }
        Map<String, String> stats = new LinkedHashMap<>();
        for (String line : textCommand("stats")) {
            String[] parts = line.split(" ", 3);
            if (parts.length == 3 && parts[0].equals("STAT")) {
                stats.put(parts[1], parts[2]);
            }
        }
        return stats;
    }

    /** Empties the server over the text protocol (the binary one when it refuses text). */
    public void flushAll() {
        if (!speaksText()) {
            try (Socket socket = openSocket()) {
                new BinaryOracle(socket, options.sasl()).flushAll();
                return;
            } catch (IOException e) {
                throw new UncheckedIOException("flush_all on " + address() + " failed", e);
            }
        }
        List<String> reply = textCommand("flush_all");
        if (!reply.equals(List.of("OK"))) {
            throw new IllegalStateException("flush_all answered " + reply);
        }
    }

    /** Kills the process. */
    @Override
    public void close() {
        kill();
    }

    @Override
    public String toString() {
        return "memcached@" + address() + (paused ? " (paused)" : isRunning() ? "" : " (down)");
    }

    /** memcached refuses the text protocol when it requires SASL or was started with {@code -B binary}. */
    private boolean speaksText() {
        return options.sasl() == null && !options.binaryOnly();
    }

    private static boolean isLastLine(String line) {
        return switch (line) {
            case "END", "OK", "ERROR", "STORED", "NOT_STORED", "EXISTS", "NOT_FOUND", "DELETED", "TOUCHED", "RESET", "EN" -> true;
            default -> line.startsWith("HD") || line.startsWith("NF") || line.startsWith("NS") || line.startsWith("EX")
                    || line.startsWith("VERSION") || line.startsWith("CLIENT_ERROR") || line.startsWith("SERVER_ERROR")
                    || line.chars().allMatch(Character::isDigit);
        };
    }

    /** Launches on the port {@code ports} gives, again on the next one while memcached fails to start. */
    private void launch(int attempts, IntSupplier ports) {
        IllegalStateException last = null;
        for (int attempt = 0; attempt < attempts; attempt++) {
            port = ports.getAsInt();
            try {
                launch();
                return;
            } catch (IllegalStateException e) {
                last = e;
            }
        }
        throw last;
    }

    private void launch() {
        List<String> command = new ArrayList<>(List.of(binary.toString(),
                "-l", host(), "-p", Integer.toString(port), "-U", "0",
                "-m", Integer.toString(options.memoryMegabytes()),
                "-I", options.itemSizeMax(),
                "-t", Integer.toString(options.threads()),
                "-c", "4096"));
        if ("root".equals(System.getProperty("user.name"))) {
            command.add("-u");
            command.add("root");
        }
        if (options.sasl() != null) {
            command.add("-S");
        }
        if (options.tls() != null) {
            command.addAll(options.tls().arguments());
        }
        if (options.binaryOnly()) {
            command.add("-B");
            command.add("binary");
        }
        command.addAll(options.extraArguments());
        ProcessBuilder builder = new ProcessBuilder(command);
        if (saslConfig != null) {
            builder.environment().put("SASL_CONF_PATH", saslConfig.toString());
        }
        try {
            process = builder
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + command, e);
        }
        paused = false;
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("memcached on port " + port + " exited with " + process.exitValue()
                        + ": " + lastLogLines());
            }
            if (accepts()) {
                requireAnsweredByThisProcess();
                return;
            }
            try {
                process.waitFor(20, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting memcached", e);
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("memcached on port " + port + " did not accept connections within "
                + START_TIMEOUT + ": " + lastLogLines());
    }

    /**
     * Fails unless the listener on the port is the process just started: on a port another process
     * took after it was picked, memcached exits, but the first connection may reach the other one.
     */
    private void requireAnsweredByThisProcess() {
        String answeredPid;
        try {
            answeredPid = stats().get("pid");
        } catch (RuntimeException e) {
            answeredPid = "no memcached stats (" + e.getMessage() + ")";
        }
        if (!String.valueOf(process.pid()).equals(answeredPid)) {
            ProcessSignals.kill(process);
            throw new IllegalStateException("port " + port + " is answered by another process than the memcached (pid "
                    + process.pid() + ") started on it: pid " + answeredPid + "; " + lastLogLines());
        }
    }

    private Socket openSocket() throws IOException {
        Socket socket = new Socket();
        try {
            socket.connect(socketAddress(), 2_000);
            socket.setSoTimeout(5_000);
            if (options.tls() == null) {
                return socket;
            }
            SSLContext context = TestCertificates.mutualClientContext();
            return context.getSocketFactory().createSocket(socket, host(), port, true);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(socketAddress(), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void requireRunning() {
        if (!isRunning()) {
            throw new IllegalStateException(this + " is not running");
        }
    }

    private String lastLogLines() {
        return ProcessLog.tail(log);
    }
}
