package dev.grizzlyboot.thrift;

import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;

import org.apache.thrift.TProcessor;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TTransportException;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * libthrift's {@code TThreadPoolServer} on a free loopback port with framed transport, serving on
 * a thread of its own from {@link #start} (which returns once it serves) until {@link #close}: the
 * second implementation the differential tests hold our server against. One per test.
 */
final class LibthriftServer implements AutoCloseable {

    private final TServer server;
    private final ExecutorService serving;
    private final int port;

    private LibthriftServer(TServer server, ExecutorService serving, int port) {
        this.server = server;
        this.serving = serving;
        this.port = port;
    }

    /** A server with libthrift's default binary protocol and framed transport. */
    static LibthriftServer start(TProcessor processor) throws TTransportException {
        return start(processor, UnaryOperator.identity());
    }

    /** A server whose arguments (protocol, frame size, worker threads) {@code configure} adjusts. */
    static LibthriftServer start(TProcessor processor, UnaryOperator<TThreadPoolServer.Args> configure)
            throws TTransportException {
        TServerSocket socket = new TServerSocket(new InetSocketAddress("127.0.0.1", 0));
        TServer server = new TThreadPoolServer(configure.apply(new TThreadPoolServer.Args(socket).processor(processor)
                .transportFactory(new TFramedTransport.Factory())));
        ExecutorService serving = Executors.newSingleThreadExecutor();
        serving.submit(server::serve);
        LibthriftServer started = new LibthriftServer(server, serving, socket.getServerSocket().getLocalPort());
        await().atMost(Duration.ofSeconds(5)).until(server::isServing);
        return started;
    }

    int port() {
        return port;
    }

    @Override
    public void close() {
        server.stop();
        serving.shutdownNow();
    }
}
