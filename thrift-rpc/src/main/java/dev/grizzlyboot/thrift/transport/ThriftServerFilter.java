package dev.grizzlyboot.thrift.transport;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.nio.channels.spi.SelectorProvider;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

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
import org.glassfish.grizzly.nio.tmpselectors.TemporarySelectorPool;
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
 * failure closes that connection only, as does a request frame with bytes after its message (once
 * that message is answered). While a connection's write queue holds more than 1 MB of
 * replies its client has not taken, no further reply is made and nothing more is read from it
 * until the queue is half empty.
 *
 * <p>With connection readers (plain TCP only) the filter frames requests itself and queues them
 * like call queueing; in addition, while the server has no more connections than workers, the
 * worker that emptied a connection's queue keeps the connection, if its client called again
 * within the reader's idle time of its last reply, and waits for its next request on a selector
 * of its own, running calls as they arrive without a hand-off, until the connection is idle for a
 * few milliseconds, reading pauses, or other connections wait for a worker. Then the selector
 * thread reads it again.
 */
public final class ThriftServerFilter extends BaseFilter {
    private static final Logger log = LoggerFactory.getLogger(ThriftServerFilter.class);
    /**
     * How long a worker holding a connection waits for its next request before giving it back:
     * long against a round trip, so a busy connection stays, short enough that an idle one frees
     * its worker soon.
     */
    private static final long READER_IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final TProcessor processor;
    private final TProtocolFactory protocols;
    private final TConfiguration configuration;
    private final CallObserver observer;
    private final String defaultService;
    private final boolean queueCalls;
    /** Null unless this filter frames requests itself and workers may hold connections. */
    private final ThriftFrameFilter ownFraming;
    /** Workers the pool runs at most; while more are wanted, workers give their connections back. */
    private final int workerLimit;
    /** Queue runs started and not finished, including workers holding a connection. */
    private final AtomicInteger busyWorkers = new AtomicInteger();
    /** The connections workers hold, so that a shortage of workers can make one give its connection back. */
    private final Set<ConnectionReader> held = ConcurrentHashMap.newKeySet();
    /**
     * The selectors workers wait on while they hold connections, kept open between takes (opening
     * and closing one per take cost 12-16 µs); null unless workers may hold connections.
     */
    private final TemporarySelectorPool readerSelectors;
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
        this(processor, protocols, configuration, observer, queueCalls, null, Integer.MAX_VALUE);
    }

    /**
     * Creates a filter with connection readers: it frames requests itself by {@code framing}'s
     * limits, queues them per connection on the transport's worker pool, and lets the worker that
     * emptied a connection's queue keep reading that connection. Put it right after the transport
     * filter (and the idle filter it makes), without a {@link ThriftFrameFilter}, on plain TCP, and
     * call {@link #drain()} when done with it: that closes the selectors its workers wait on.
     *
     * @param processor     a blocking processor, for example {@code new Calculator.Processor<>(handler)}
     * @param protocols     the wire protocol inside each frame
     * @param configuration message-size and recursion limits for every request
     * @param observer      told about each call with its service and method; null for none
     * @param framing       the frame limits to apply; it is not added to the chain
     * @param workerLimit   how many threads the worker pool runs at most, {@link Integer#MAX_VALUE} if unbounded
     * @throws IllegalArgumentException if {@code processor} is an asynchronous processor
     */
    public ThriftServerFilter(TProcessor processor, TProtocolFactory protocols, TConfiguration configuration,
                              CallObserver observer, ThriftFrameFilter framing, int workerLimit) {
        this(processor, protocols, configuration, observer, true, framing, workerLimit);
    }

    private ThriftServerFilter(TProcessor processor, TProtocolFactory protocols, TConfiguration configuration,
                               CallObserver observer, boolean queueCalls, ThriftFrameFilter ownFraming,
                               int workerLimit) {
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
        this.ownFraming = ownFraming;
        this.workerLimit = workerLimit;
        this.readerSelectors = ownFraming == null ? null : new TemporarySelectorPool(SelectorProvider.provider(),
                Math.min(workerLimit, TemporarySelectorPool.DEFAULT_SELECTORS_COUNT));
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
        if (current.assembler != null) {
            queueFrames(current, frame);
            return ctx.getStopAction();
        }
        if (queueCalls) {
            // The read buffer may be reused once this returns, so the queued frame is a copy.
            if (current.offer(Buffers.wrap(connection.getMemoryManager(), copyOf(frame)))) {
                startWorker(current, false);
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

    /**
     * Adds what the selector thread read to the connection's partial frame and queues every frame
     * now complete; the read buffer may be reused once this returns, so queued frames are copies.
     */
    private void queueFrames(ServerSession current, Buffer input) {
        current.assembler.append(input);
        queueCompleteFrames(current, current.reader != null);
    }

    /**
     * Queues every complete frame of the connection's assembler, starting a worker if none runs its
     * queue; that worker may go on reading the connection if {@code mayHold} (only on the selector
     * thread, which is the one to let it go).
     */
    private void queueCompleteFrames(ServerSession current, boolean mayHold) {
        FrameAssembler assembler = current.assembler;
        Connection<?> connection = current.connection;
        int length;
        while ((length = assembler.nextLength(connection)) > 0) {
            if (current.offer(assembler.takeCopy(connection, length))) {
                startWorker(current, mayHold);
            }
        }
        if (length == FrameAssembler.REFUSED) {
            connection.closeSilently();
        }
    }

    /**
     * Starts a worker for the connection's queue. If {@code mayHold}, a worker is free, the server
     * has no more connections than workers and the connection's last call ended within the
     * reader's idle time, the selector thread is asked right away to let the connection go, so
     * that the worker can hold it once its calls have run without waiting for the selector thread
     * then.
     */
    private void startWorker(ServerSession current, boolean mayHold) {
        boolean poolShort = busyWorkers.incrementAndGet() > workerLimit;
        if (poolShort) {
            // A worker waiting on a connection it holds would otherwise notice only at its idle time.
            for (ConnectionReader holder : held) {
                holder.wakeUp();
                break;
            }
        }
        // A client that pauses longer than a holder waits would only be given back after the wait.
        // With more connections than workers, holding does not pay: the connections not held wait
        // for the selector threads, which the holders and their clients crowd off the cores (p99
        // three times connection-queue's on two cores; docs/benchmarks-thrift.md, "Ninth round").
        CompletableFuture<Boolean> take = mayHold && !poolShort && connections.size() <= workerLimit
                && current.lastCallEndedWithin(READER_IDLE_NANOS) ? current.reader.requestTake() : null;
        try {
            current.connection.getTransport().getWorkerThreadPool().execute(() -> {
                try {
                    runQueue(current, take);
                } finally {
                    busyWorkers.decrementAndGet();
                }
            });
        } catch (RejectedExecutionException e) {
            busyWorkers.decrementAndGet();
            if (take != null) {
                current.reader.release(take);
            }
            log.debug("closing {}: the worker pool takes no more calls", current.connection.getPeerAddress(), e);
            current.connection.closeSilently();
        }
    }

    /**
     * Runs the connection's queued calls, then, given a {@code take} from the selector thread,
     * holds the connection and reads it if that is still worth it, or gives it back.
     */
    private void runQueue(ServerSession current, CompletableFuture<Boolean> take) {
        boolean emptied = false;
        try {
            emptied = runQueuedCalls(current);
        } finally {
            if (take != null && !emptied) {
                // Paused, failed or thrown: reading goes back to the selector thread.
                current.reader.release(take);
            }
        }
        if (take != null && emptied) {
            keepReading(current, take);
        }
    }

    /**
     * Runs the connection's queued calls in order and keeps going while the selector queues more;
     * returns true once none is pending and none failed. While the connection's backlog is full
     * it stops, keeping the queue, and a worker takes it up again once the client has taken its
     * replies. After a failed call the rest are dropped, as the connection is closing.
     */
    private boolean runQueuedCalls(ServerSession current) {
        boolean failed = false;
        try {
            do {
                if (current.pauseWhileBacklogFull(() -> startWorker(current, false))) {
                    return false;
                }
                Buffer frame = current.nextFrame();
                failed = failed || !run(current, frame);
            } while (endCall(current) > 0);
            return !failed;
        } catch (Error e) {
            // The queue's count is now wrong, so nothing more may be read from this connection.
            current.connection.closeSilently();
            throw e;
        }
    }

    /**
     * Holds the connection on this worker, reading and running its requests, and gives it back to
     * the selector thread when it is idle, reading pauses, it closes, or the pool is short.
     */
    private void keepReading(ServerSession current, CompletableFuture<Boolean> take) {
        if (workersShort()) {
            current.reader.release(take);
            return;
        }
        if (!current.reader.hold(take)) {
            return;
        }
        held.add(current.reader);
        try {
            readAndRun(current);
        } catch (IOException e) {
            log.debug("closing {}: reading failed", current.connection.getPeerAddress(), e);
            current.connection.closeSilently();
        } finally {
            held.remove(current.reader);
            current.reader.giveBack();
        }
    }

    private void readAndRun(ServerSession current) throws IOException {
        FrameAssembler assembler = current.assembler;
        Connection<?> connection = current.connection;
        long lastActive = System.nanoTime();
        while (true) {
            int length = assembler.nextLength(connection);
            if (length > 0) {
                if (!runReceived(current, length)) {
                    return;
                }
                // Its last call's end, which the session has just read the clock for.
                lastActive = current.lastCallEnded();
                length = assembler.nextLength(connection);
            }
            if (length == FrameAssembler.REFUSED) {
                connection.closeSilently();
                return;
            }
            if (!connection.isOpen() || !current.mayRead() || workersShort() || Thread.currentThread().isInterrupted()) {
                return;
            }
            long idleLeft = READER_IDLE_NANOS - (System.nanoTime() - lastActive);
            if (idleLeft <= 0) {
                return;
            }
            int read = current.reader.read(assembler, Math.max(1, TimeUnit.NANOSECONDS.toMillis(idleLeft)));
            if (read < 0) {
                connection.closeSilently();
                return;
            }
            if (read == 0) {
                // Timed out or woken: the checks above say whether to go on waiting.
                continue;
            }
            lastActive = System.nanoTime();
            IdleClock clock = idleClock;
            if (clock != null) {
                clock.restart(connection);
            }
        }
    }

    /**
     * Runs the next frame of {@code length} bytes and every complete one received after it, as one
     * pending call, so that a drain lets them all reply as it lets queued calls; returns false if a
     * call failed, the connection is closing, or its backlog is full. Then the frames not run go to
     * the connection's queue, whose worker waits for the client to take its replies first.
     */
    private boolean runReceived(ServerSession current, int length) {
        if (!current.beginCall()) {
            return false;
        }
        boolean backlogFull = false;
        try {
            int next = length;
            do {
                if (current.backlogFull()) {
                    backlogFull = true;
                    break;
                }
                // The view is only valid until the assembler moves its bytes, so the call runs first.
                if (!run(current, current.assembler.takeView(current.connection, next))) {
                    return false;
                }
                next = current.assembler.nextLength(current.connection);
            } while (next > 0);
        } finally {
            endCall(current);
        }
        if (backlogFull) {
            queueCompleteFrames(current, false);
            return false;
        }
        return true;
    }

    /** True while more queue runs are wanted than the pool has threads. */
    private boolean workersShort() {
        return busyWorkers.get() > workerLimit;
    }

    /** Runs one call; returns false if it failed and the connection was closed. */
    private boolean run(ServerSession current, Buffer frame) {
        try {
            current.transport.receive(frame);
            processor.process(current.in, current.out);
            current.recordEnd(null);
            int unread = current.transport.unreadInFrame();
            if (unread > 0) {
                // libthrift's servers read such bytes as the start of the next message, so a second
                // message in the frame is answered and anything else ends the connection; dropping
                // them would leave a client waiting for a reply that never comes. The connection
                // closes after the reply, as a client closes on a reply frame with bytes left over.
                log.debug("closing {}: {} bytes after the request's message in its frame",
                        current.connection.getPeerAddress(), unread);
                current.connection.closeSilently();
                return false;
            }
            return true;
        } catch (TException | RuntimeException e) {
            current.recordEnd(e);
            // The stream position is unknown after a failed call, so the connection cannot go on.
            log.debug("closing {} after a failed call", current.connection.getPeerAddress(), e);
            current.connection.closeSilently();
            return false;
        } catch (Error e) {
            // libthrift's processors let a handler's Error through without a reply. A worker holding
            // the connection would otherwise give it back open, its client waiting for its read timeout.
            current.recordEnd(e);
            current.connection.closeSilently();
            throw e;
        }
    }

    private int endCall(ServerSession current) {
        int left = current.endCall();
        if ((draining || current.inputEnded()) && current.closeIfIdle()) {
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
     * accepting. With connection readers it also closes the selectors workers wait on, and busy
     * connections are served through their queue from then on.
     *
     * @return a future that completes once every connection this filter saw has closed
     */
    public CompletableFuture<Void> drain() {
        draining = true;
        if (readerSelectors != null) {
            // Workers still holding a connection close theirs when they give it back.
            readerSelectors.close();
        }
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
     * Creates the transport filter for this filter's chain, to put first: Grizzly's, except that
     * when a client's input ends (it shut down its output after its last request, or closed) the
     * connection is not terminated at once but read no more, and closed (after its queued replies
     * are written) once the calls already read have run, as libthrift's servers answer them.
     *
     * @return the filter to add to the chain in place of Grizzly's {@code TransportFilter}
     */
    public TransportFilter transportFilter() {
        return new InputEndAwareTransportFilter(this::inputEnded);
    }

    private void inputEnded(Connection<?> connection) {
        ServerSession current = session.get(connection);
        if (current == null || current.endInput()) {
            connection.close();
        }
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
        boolean framed = ownFraming != null || self >= 1 && chain.get(self - 1) instanceof ThriftFrameFilter;
        if (!framed) {
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
            FrameWriteQueue direct = directWriter(connection, clock);
            if (ownFraming != null && direct == null) {
                throw new TException("a filter that frames requests itself needs a plain TCP chain without other filters");
            }
            current = new ServerSession(connection, configuration, protocols, observer, defaultService,
                    direct, clock, ownFraming, readerSelectors);
            session.set(connection, current);
        }
        return current;
    }
}
