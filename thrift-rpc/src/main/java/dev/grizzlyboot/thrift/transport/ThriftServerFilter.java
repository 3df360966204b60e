package dev.grizzlyboot.thrift.transport;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

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
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Grizzly filter that runs a blocking {@link TProcessor} (including {@code TMultiplexedProcessor})
 * on each request frame that {@link ThriftFrameFilter} passes up, and writes the reply frame.
 *
 * <p>The processor runs on whichever thread Grizzly's I/O strategy delivers the read event to: a
 * worker thread for the worker-thread strategy, the former leader for leader-follower (which has
 * already handed the selector on), and the selector thread itself only for the same-thread
 * strategy. Calls on one connection run one after another; calls on different connections run
 * concurrently, so the processor must be thread-safe. A processor or protocol failure closes that
 * connection only.
 */
public final class ThriftServerFilter extends BaseFilter {
    private static final Logger log = LoggerFactory.getLogger(ThriftServerFilter.class);

    private final TProcessor processor;
    private final TProtocolFactory protocols;
    private final TConfiguration configuration;
    private final CallObserver observer;
    private final String defaultService;
    private final Attribute<ServerSession> session =
            AttributeBuilder.DEFAULT_ATTRIBUTE_BUILDER.createAttribute(ThriftServerFilter.class.getName() + ".session");
    private final Set<Connection<?>> connections = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> drained = new CompletableFuture<>();
    private volatile boolean draining;

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
        if (processor instanceof TAsyncProcessor) {
            throw new IllegalArgumentException(processor.getClass().getName()
                    + " is an asynchronous processor (TAsyncProcessor) and would never reply here; "
                    + "serve the generated blocking Processor (Service.Processor, not Service.AsyncProcessor)");
        }
        this.processor = processor;
        this.protocols = protocols;
        this.configuration = configuration;
        this.observer = observer;
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
        if (!current.beginCall()) {
            return ctx.getStopAction();
        }
        try {
            current.transport.receive(ctx.<Buffer>getMessage());
            processor.process(current.in, current.out);
            current.recordEnd(null);
        } catch (TException | RuntimeException e) {
            current.recordEnd(e);
            // The stream position is unknown after a failed call, so the connection cannot go on.
            log.debug("closing {} after a failed call", connection.getPeerAddress(), e);
            connection.closeSilently();
        } finally {
            current.endCall();
        }
        if (draining && current.closeIfIdle()) {
            connection.close();
        }
        return ctx.getStopAction();
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
     * Returns the number of connections currently open through this filter.
     *
     * @return open connection count
     */
    public int openConnections() {
        return connections.size();
    }

    private void completeDrainIfEmpty() {
        if (draining && connections.isEmpty()) {
            drained.complete(null);
        }
    }

    private ServerSession sessionOf(Connection<?> connection) throws TException {
        ServerSession current = session.get(connection);
        if (current == null) {
            current = new ServerSession(connection, configuration, protocols, observer, defaultService);
            session.set(connection, current);
        }
        return current;
    }
}
