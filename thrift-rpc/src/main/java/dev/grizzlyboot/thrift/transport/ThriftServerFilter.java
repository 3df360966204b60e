package dev.grizzlyboot.thrift.transport;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

import dev.grizzlyboot.thrift.observation.CallObserver;
import org.apache.thrift.TAsyncProcessor;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.TException;
import org.apache.thrift.TProcessor;
import org.apache.thrift.protocol.TProtocolFactory;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.attributes.Attribute;
import org.glassfish.grizzly.attributes.AttributeBuilder;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.Filter;
import org.glassfish.grizzly.filterchain.FilterChain;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.filterchain.TransportFilter;
import org.glassfish.grizzly.memory.Buffers;
import org.glassfish.grizzly.nio.NIOConnection;
import org.glassfish.grizzly.utils.DelayedExecutor;
import org.glassfish.grizzly.utils.IdleTimeoutFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Grizzly filter that runs a blocking {@link TProcessor} (including {@code TMultiplexedProcessor})
 * on each request frame that {@link ThriftFrameFilter} passes up, and writes the reply frame: on a
 * plain TCP chain that only frames, straight to the connection's write queue with its length put
 * in place ({@link FrameWriteQueue}), otherwise (TLS, other filters) through the chain.
 *
 * <p>Without call queueing the processor runs on whichever thread Grizzly's I/O strategy delivers
 * the read event to: a worker thread for the worker-thread strategy, the former leader for
 * leader-follower (which has already handed the selector on), and the selector thread itself for
 * the same-thread strategy. With call queueing (meant for the same-thread strategy) the selector
 * thread only queues each frame on its connection, and a thread of the transport's worker pool
 * runs that connection's queue and writes the replies, so reading never waits for a handler.
 * Either way calls on one connection run one after another, in order; calls on different
 * connections run concurrently, so the processor must be thread-safe. A processor or protocol
 * failure closes that connection only. While a connection's write queue holds more than 1 MB of
 * replies its client has not taken, no further reply is made and nothing more is read from it
 * until the queue is half empty.
 */
public final class ThriftServerFilter extends BaseFilter {
    private static final Logger log = LoggerFactory.getLogger(ThriftServerFilter.class);

    private final TProcessor processor;
    private final TProtocolFactory protocols;
    private final TConfiguration configuration;
    private final CallObserver observer;
    private final String defaultService;
    private final boolean queueCalls;
    private final Attribute<ServerSession> session =
            AttributeBuilder.DEFAULT_ATTRIBUTE_BUILDER.createAttribute(ThriftServerFilter.class.getName() + ".session");
    private final Set<Connection<?>> connections = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private volatile boolean draining;
    /** Null until {@link #idleTimeoutFilter} made the chain's idle filter. */
    private volatile IdleClock idleClock;

    /**
     * Creates a filter serving {@code processor}.
     *
     * @param processor     a blocking processor, for example {@code new Calculator.Processor<>(handler)}
     * @param protocols     the wire protocol inside each frame
     * @param configuration message-size and recursion limits for every request
     * @throws IllegalArgumentException if {@code processor} is an asynchronous processor, which
     *                                  needs libthrift's own non-blocking servers to reply
     */
    public ThriftServerFilter(TProcessor processor, TProtocolFactory protocols, TConfiguration configuration) {
        this(processor, protocols, configuration, null);
    }

    /**
     * Creates a filter serving {@code processor} that tells {@code observer} about every call.
     *
     * @param processor     a blocking processor, for example {@code new Calculator.Processor<>(handler)}
     * @param protocols     the wire protocol inside each frame
     * @param configuration message-size and recursion limits for every request
     * @param observer      told about each call with its service (the multiplexed name, or the
     *                      generated service's simple name for a plain processor) and method; null for none
     * @throws IllegalArgumentException if {@code processor} is an asynchronous processor
     */
    public ThriftServerFilter(TProcessor processor, TProtocolFactory protocols, TConfiguration configuration,
                              CallObserver observer) {
        this(processor, protocols, configuration, observer, false);
    }

    /**
     * Creates a filter serving {@code processor} that tells {@code observer} about every call and,
     * if {@code queueCalls}, hands each call to the transport's worker pool through a queue per
     * connection.
     *
     * @param processor     a blocking processor, for example {@code new Calculator.Processor<>(handler)}
     * @param protocols     the wire protocol inside each frame
     * @param configuration message-size and recursion limits for every request
     * @param observer      told about each call with its service and method; null for none
     * @param queueCalls    whether calls run on the worker pool in per-connection order instead of
     *                      on the thread that read them
     * @throws IllegalArgumentException if {@code processor} is an asynchronous processor
     */
    public ThriftServerFilter(TProcessor processor, TProtocolFactory protocols, TConfiguration configuration,
                              CallObserver observer, boolean queueCalls) {
        if (processor instanceof TAsyncProcessor) {
            throw new IllegalArgumentException(processor.getClass().getName()
                    + " is an asynchronous processor (TAsyncProcessor) and would never reply here; "
                    + "serve the generated blocking Processor (Service.Processor, not Service.AsyncProcessor)");
        }
        this.processor = processor;
        this.protocols = protocols;
        this.configuration = configuration;
        this.observer = observer;
        this.queueCalls = queueCalls;
        Class<?> service = processor.getClass().getEnclosingClass();
        this.defaultService = service != null ? service.getSimpleName() : processor.getClass().getSimpleName();
    }

    @Override
    public NextAction handleAccept(FilterChainContext ctx) throws IOException {
        Connection<?> connection = ctx.getConnection();
        connections.add(connection);
        if (draining) {
            connection.closeSilently();
        }
        return ctx.getInvokeAction();
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        Connection<?> connection = ctx.getConnection();
        ServerSession current;
        try {
            current = sessionOf(connection);
        } catch (TException e) {
            connection.closeSilently();
            return ctx.getStopAction();
        }
        Buffer frame = ctx.getMessage();
        if (queueCalls) {
            // The read buffer may be reused once this returns, so the queued frame is a copy.
            if (current.offer(Buffers.wrap(connection.getMemoryManager(), copyOf(frame)))) {
                startWorker(current);
            }
            return ctx.getStopAction();
        }
        if (current.backlog != null && current.backlog.full()) {
            return waitForBacklog(ctx, current);
        }
        if (current.beginCall()) {
            try {
                run(current, frame);
            } finally {
                endCall(current);
            }
        }
        return ctx.getStopAction();
    }

    /**
     * Holds the request until the connection's backlog has drained, by suspending its read: Grizzly
     * then reads nothing more from the connection under any I/O strategy, and would undo a plain
     * read-interest change when the read completes. The call then runs on a worker, or for the
     * same-thread strategy on the selector thread that drained the queue, as it would have.
     */
    private NextAction waitForBacklog(FilterChainContext ctx, ServerSession current) {
        ctx.suspend();
        current.backlog.whenDrained(() -> {
            Executor workers = current.connection.getTransport().getWorkerThreadPool();
            if (workers == null) {
                ctx.resume();
                return;
            }
            try {
                workers.execute(ctx::resume);
            } catch (RejectedExecutionException e) {
                log.debug("closing {}: the worker pool takes no more calls", current.connection.getPeerAddress(), e);
                current.connection.closeSilently();
            }
        });
        return ctx.getSuspendAction();
    }

    private void startWorker(ServerSession current) {
        try {
            current.connection.getTransport().getWorkerThreadPool().execute(() -> runQueue(current));
        } catch (RejectedExecutionException e) {
            log.debug("closing {}: the worker pool takes no more calls", current.connection.getPeerAddress(), e);
            current.connection.closeSilently();
        }
    }

    /**
     * Runs the connection's queued calls in order and keeps going while the selector queues more.
     * While the connection's backlog is full it stops, keeping the queue, and a worker takes it up
     * again once the client has taken its replies. After a failed call the rest are dropped, as
     * the connection is closing.
     */
    private void runQueue(ServerSession current) {
        boolean failed = false;
        try {
            do {
                if (current.pauseWhileBacklogFull(() -> startWorker(current))) {
                    return;
                }
                Buffer frame = current.nextFrame();
                failed = failed || !run(current, frame);
            } while (endCall(current) > 0);
        } catch (Error e) {
            // The queue's count is now wrong, so nothing more may be read from this connection.
            current.connection.closeSilently();
            throw e;
        }
    }

    /** Runs one call; returns false if it failed and the connection was closed. */
    private boolean run(ServerSession current, Buffer frame) {
        try {
            current.transport.receive(frame);
            processor.process(current.in, current.out);
            current.recordEnd(null);
            return true;
        } catch (TException | RuntimeException e) {
            current.recordEnd(e);
            // The stream position is unknown after a failed call, so the connection cannot go on.
            log.debug("closing {} after a failed call", current.connection.getPeerAddress(), e);
            current.connection.closeSilently();
            return false;
        }
    }

    private int endCall(ServerSession current) {
        int left = current.endCall();
        if (draining && current.closeIfIdle()) {
            current.connection.close();
        }
        return left;
    }

    private static byte[] copyOf(Buffer frame) {
        byte[] bytes = new byte[frame.remaining()];
        frame.get(bytes);
        return bytes;
    }

    @Override
    public NextAction handleClose(FilterChainContext ctx) throws IOException {
        connections.remove(ctx.getConnection());
        completeDrainIfEmpty();
        return ctx.getInvokeAction();
    }

    /**
     * Starts a graceful stop: idle connections close now, busy ones right after their reply is
     * written, and new connections are closed on accept. Call it after the server socket stopped
     * accepting.
     *
     * @return a future that completes once every connection this filter saw has closed
     */
    public CompletableFuture<Void> drain() {
        draining = true;
        for (Connection<?> connection : connections) {
            ServerSession current = session.get(connection);
            if (current == null || current.closeIfIdle()) {
                connection.close();
            }
        }
        completeDrainIfEmpty();
        return drained;
    }

    /**
     * Creates the idle-timeout filter for this filter's chain: it closes a connection that has
     * neither read nor written for {@code timeout}, but never while one of its calls is queued or
     * running, however long the handler takes, nor while replies wait in its write queue for the
     * client to take them. Put it in front of the framing filter.
     *
     * @param checks  the executor that checks for idle connections
     * @param timeout how long a connection without calls may stay silent
     * @return the filter to add to the chain
     */
    public IdleTimeoutFilter idleTimeoutFilter(DelayedExecutor checks, Duration timeout) {
        long millis = timeout.toMillis();
        // Every read and write restarts the clock. When it runs out the session decides, atomically
        // with calls starting, whether the connection is idle; a busy one is checked again at the
        // next tick and its reply restarts the clock. Replies waiting for their client restart it
        // here, so a client that has just taken its last reply gets a whole timeout.
        DelayedExecutor.Worker<Connection> closeIfIdle = connection -> {
            ServerSession current = session.get(connection);
            if (current != null && current.waitingForClient()) {
                idleClock.restart(connection);
                return false;
            }
            if (current != null && !current.closeIfIdle()) {
                return false;
            }
            connection.closeSilently();
            return true;
        };
        IdleTimeoutFilter filter = new IdleTimeoutFilter(checks, closeIfIdle, ctx -> millis) {
        };
        idleClock = new IdleClock(filter, millis);
        return filter;
    }

    /**
     * Returns the number of connections currently open through this filter.
     *
     * @return open connection count
     */
    public int openConnections() {
        return connections.size();
    }

    /**
     * Returns a writer that puts replies straight on the write queue if the connection's chain
     * only frames on plain TCP (transport, the idle filter this filter made, framing, this filter),
     * or null if replies must go through the chain (TLS or any other filter).
     */
    private FrameWriteQueue directWriter(Connection<?> connection, IdleClock clock) {
        if (!(connection instanceof NIOConnection nio) || !(nio.getChannel() instanceof SocketChannel)
                || !(connection.getProcessor() instanceof FilterChain chain)) {
            return null;
        }
        int self = chain.indexOf(this);
        if (self < 1 || !(chain.get(self - 1) instanceof ThriftFrameFilter)) {
            return null;
        }
        for (Filter filter : chain) {
            boolean onlyFrames = filter instanceof TransportFilter || filter instanceof ThriftFrameFilter
                    || filter == this || clock != null && filter == clock.filter;
            if (!onlyFrames) {
                return null;
            }
        }
        return new FrameWriteQueue(nio);
    }

    private void completeDrainIfEmpty() {
        if (draining && connections.isEmpty()) {
            drained.complete(null);
        }
    }

    private ServerSession sessionOf(Connection<?> connection) throws TException {
        ServerSession current = session.get(connection);
        if (current == null) {
            IdleClock clock = idleClock;
            current = new ServerSession(connection, configuration, protocols, observer, defaultService,
                    directWriter(connection, clock), clock);
            session.set(connection, current);
        }
        return current;
    }
}
