package dev.grizzlyboot.benchmarks.thrift;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import dev.grizzlyboot.thrift.ThriftProtocol;
import dev.grizzlyboot.thrift.observation.MicrometerCallObserver;
import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.server.ThriftServerBuilder;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import io.micrometer.observation.ObservationRegistry;
import org.apache.thrift.server.TNonblockingServer;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.server.TThreadedSelectorServer;
import org.apache.thrift.transport.TNonblockingServerSocket;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * The servers under test, each serving {@link EchoService} with the given protocol over framed
 * transport on a free loopback port. Thread pools are sized alike (worker pools of 8 where the
 * server has one; TThreadPoolServer needs a thread per connection), except the one row labelled
 * with our server's default of 32. The floor row is no Thrift server at all but the least a server
 * with a thread per connection can cost.
 */
enum BenchServer {
    GRIZZLY_WORKER("grizzly-boot (worker-thread)", IoStrategy.WORKER_THREAD),
    GRIZZLY_CONNECTION_QUEUE("grizzly-boot (connection-queue)", IoStrategy.CONNECTION_QUEUE),
    GRIZZLY_CONNECTION_READER("grizzly-boot (connection-reader)", IoStrategy.CONNECTION_READER),
    /** The server's own default pool size: a worker holds a connection, so 8 serve at most 8 without hand-offs. */
    GRIZZLY_CONNECTION_READER_32("grizzly-boot (connection-reader, 32 workers)", IoStrategy.CONNECTION_READER, 32),
    GRIZZLY_SAME_THREAD("grizzly-boot (same-thread)", IoStrategy.SAME_THREAD),
    GRIZZLY_LEADER_FOLLOWER("grizzly-boot (leader-follower)", IoStrategy.LEADER_FOLLOWER),
    THREAD_POOL("libthrift TThreadPoolServer") {
        @Override
        Running start(ThriftProtocol protocol, ObservationRegistry observations) throws TTransportException {
            TServerSocket socket = new TServerSocket(new InetSocketAddress("127.0.0.1", 0));
            return libthrift(new TThreadPoolServer(new TThreadPoolServer.Args(socket)
                    .processor(processor()).protocolFactory(protocol.factory())
                    .transportFactory(new TFramedTransport.Factory())
                    .minWorkerThreads(8).maxWorkerThreads(256)), socket.getServerSocket().getLocalPort());
        }
    },
    THREADED_SELECTOR("libthrift TThreadedSelectorServer") {
        @Override
        Running start(ThriftProtocol protocol, ObservationRegistry observations) throws TTransportException {
            TNonblockingServerSocket socket = new TNonblockingServerSocket(new InetSocketAddress("127.0.0.1", 0));
            return libthrift(new TThreadedSelectorServer(new TThreadedSelectorServer.Args(socket)
                    .processor(processor()).protocolFactory(protocol.factory())
                    .selectorThreads(Runtime.getRuntime().availableProcessors()).workerThreads(8)), socket.getPort());
        }
    },
    NONBLOCKING("libthrift TNonblockingServer") {
        @Override
        Running start(ThriftProtocol protocol, ObservationRegistry observations) throws TTransportException {
            TNonblockingServerSocket socket = new TNonblockingServerSocket(new InetSocketAddress("127.0.0.1", 0));
            return libthrift(new TNonblockingServer(new TNonblockingServer.Args(socket)
                    .processor(processor()).protocolFactory(protocol.factory())), socket.getPort());
        }
    },
    /** Not a Thrift server: the least a thread-per-connection server can cost ({@link EchoFloorServer}). */
    FLOOR("echo floor (blocking, no Thrift)") {
        @Override
        Running start(ThriftProtocol protocol, ObservationRegistry observations) throws IOException {
            EchoFloorServer floor = new EchoFloorServer(protocol);
            return new Running(floor.port(), floor);
        }
    };

    /** A started server: its port and how to stop it. */
    record Running(int port, AutoCloseable stopper) implements AutoCloseable {
        @Override
        public void close() throws Exception {
            stopper.close();
        }
    }

    final String label;
    /** Our server's strategy; null for libthrift's servers, which override {@link #start}. */
    private final IoStrategy strategy;
    private final int workers;

    BenchServer(String label) {
        this(label, null);
    }

    BenchServer(String label, IoStrategy strategy) {
        this(label, strategy, 8);
    }

    BenchServer(String label, IoStrategy strategy, int workers) {
        this.label = label;
        this.strategy = strategy;
        this.workers = workers;
    }

    /**
     * Starts the server; ours reports every call to {@code observations} when it is not null
     * (libthrift's servers have no such hook and ignore it).
     */
    Running start(ThriftProtocol protocol, ObservationRegistry observations) throws Exception {
        return grizzly(strategy, workers, protocol, observations);
    }

    private static Calculator.Processor<EchoService> processor() {
        return new Calculator.Processor<>(new EchoService());
    }

    private static Running grizzly(IoStrategy strategy, int workers, ThriftProtocol protocol,
                                   ObservationRegistry observations) {
        ThriftServerBuilder builder = ThriftServer.builder(processor()).host("127.0.0.1").port(0)
                .ioStrategy(strategy).protocol(protocol).workerThreads(workers)
                .stopDeadline(Duration.ofSeconds(1));
        if (observations != null) {
            builder.callObserver(MicrometerCallObserver.server(observations));
        }
        ThriftServer server = builder.build().start();
        return new Running(server.port(), server);
    }

    private static Running libthrift(TServer server, int port) {
        ExecutorService serving = Executors.newSingleThreadExecutor();
        serving.submit(server::serve);
        while (!server.isServing()) {
            Thread.onSpinWait();
        }
        return new Running(port, () -> {
            server.stop();
            serving.shutdownNow();
        });
    }
}
