package dev.grizzlyboot.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.server.NIOServerCnxn;
import org.apache.zookeeper.server.NIOServerCnxnFactory;
import org.apache.zookeeper.server.Request;
import org.apache.zookeeper.server.RequestProcessor;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.apache.zookeeper.server.persistence.FileTxnSnapLog;

/**
 * A real standalone ZooKeeper server in this JVM, on a free loopback port and with no limit on
 * connections per address, that counts what it does: every request it processes (by operation,
 * pings excluded) and every watch notification it sends to a client. Tests and benchmarks use it
 * to measure the ZooKeeper work of a protocol by the server's own account rather than by
 * client-side guesses, in total or per session. Thread-safe; {@link #counts()} is a snapshot,
 * subtract two to measure a span.
 * Like {@link ZooKeeperExtension}, it needs {@code org.apache.curator:curator-test} (which brings
 * the ZooKeeper server) on the class path.
 */
public final class CountingZooKeeperServer implements AutoCloseable {

    private static final int TICK_MILLIS = 2_000;

    private final Map<String, LongAdder> requests = new ConcurrentHashMap<>();
    private final Map<Long, LongAdder> requestsBySession = new ConcurrentHashMap<>();
    private final LongAdder watchEvents = new LongAdder();
    private final Path dataDirectory;
    private final ZooKeeperServer server;
    private final NIOServerCnxnFactory connections;

    private CountingZooKeeperServer() throws IOException, InterruptedException {
        dataDirectory = Files.createTempDirectory("counting-zookeeper");
        server = new ZooKeeperServer(new FileTxnSnapLog(dataDirectory.toFile(), dataDirectory.toFile()), TICK_MILLIS, "") {
            @Override
            protected void setupRequestProcessors() {
                super.setupRequestProcessors();
                firstProcessor = new CountingProcessor(firstProcessor);
            }
        };
        connections = new CountingConnections();
        connections.configure(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0, -1, false);
        connections.startup(server, true);
    }

    /** Starts a server with an empty data directory. */
    public static CountingZooKeeperServer start() {
        try {
            return new CountingZooKeeperServer();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start ZooKeeper", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting ZooKeeper", e);
        }
    }

    /** The connect string ({@code 127.0.0.1:port}) clients use. */
    public String connectString() {
        return "127.0.0.1:" + connections.getLocalPort();
    }

    /** What the server has counted since it started. */
    public Counts counts() {
        Map<String, Long> byOperation = new TreeMap<>();
        requests.forEach((operation, count) -> byOperation.put(operation, count.sum()));
        return new Counts(byOperation, watchEvents.sum());
    }

    /**
     * The requests (pings excluded) one session has made since the server started, its
     * {@code createSession} included: what one client cost the server, however busy the others were.
     */
    public long requestsOf(long sessionId) {
        LongAdder count = requestsBySession.get(sessionId);
        return count == null ? 0 : count.sum();
    }

    @Override
    public void close() {
        connections.shutdown();
        server.shutdown();
        try (var files = Files.walk(dataDirectory)) {
            files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            // a temporary directory; the OS cleans it up eventually
        }
    }

    /**
     * Counters at one moment. Immutable.
     *
     * @param requestsByOperation requests processed per ZooKeeper operation name ({@code getData},
     *                            {@code create}, {@code multi}, ...), pings excluded
     * @param watchEvents         watch notifications sent to clients
     */
    public record Counts(Map<String, Long> requestsByOperation, long watchEvents) {

        public Counts {
            requestsByOperation = Map.copyOf(requestsByOperation);
        }

        /** All requests, pings excluded. */
        public long requests() {
            return requestsByOperation.values().stream().mapToLong(Long::longValue).sum();
        }

        /** What happened between {@code earlier} and this snapshot. */
        public Counts minus(Counts earlier) {
            Map<String, Long> difference = new TreeMap<>(requestsByOperation);
            earlier.requestsByOperation.forEach((operation, count) -> difference.merge(operation, -count, Long::sum));
            difference.values().removeIf(count -> count == 0);
            return new Counts(difference, watchEvents - earlier.watchEvents);
        }
    }

    private final class CountingProcessor implements RequestProcessor {

        private final RequestProcessor next;

        CountingProcessor(RequestProcessor next) {
            this.next = next;
        }

        @Override
        public void processRequest(Request request) throws RequestProcessorException {
            if (request.type != ZooDefs.OpCode.ping) {
                requests.computeIfAbsent(Request.op2String(request.type), operation -> new LongAdder()).increment();
                requestsBySession.computeIfAbsent(request.sessionId, session -> new LongAdder()).increment();
            }
            next.processRequest(request);
        }

        @Override
        public void shutdown() {
            next.shutdown();
        }
    }

    private final class CountingConnections extends NIOServerCnxnFactory {

        @Override
        protected NIOServerCnxn createConnection(SocketChannel socket, SelectionKey key, SelectorThread selector)
                throws IOException {
            return new NIOServerCnxn(zkServer, socket, key, this, selector) {
                @Override
                public void process(WatchedEvent event, List<ACL> acl) {
                    if (event.getType() != Watcher.Event.EventType.None) {
                        watchEvents.increment();
                    }
                    super.process(event, acl);
                }
            };
        }
    }
}
