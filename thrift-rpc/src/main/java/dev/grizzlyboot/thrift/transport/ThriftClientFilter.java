package dev.grizzlyboot.thrift.transport;

import java.io.IOException;

import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

/**
 * Last filter of a client connection's chain: hands each reply frame from
 * {@link ThriftFrameFilter} to the connection's {@link ClientFrameTransport}, and tells it when the
 * connection closes so a waiting call fails at once instead of at its read timeout. Stateless and
 * shared by all connections; it runs on whichever thread reads the connection (the calling thread,
 * or a selector thread before the transport is attached) and never blocks.
 */
public final class ThriftClientFilter extends BaseFilter {

    /** Creates the filter; one instance can serve every client connection. */
    public ThriftClientFilter() {
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        ClientFrameTransport transport = ClientFrameTransport.ATTACHED.get(ctx.getConnection());
        if (transport == null) {
            ctx.getConnection().closeSilently();
        } else {
            transport.onReply(ctx.<Buffer>getMessage());
        }
        return ctx.getStopAction();
    }

    @Override
    public NextAction handleClose(FilterChainContext ctx) throws IOException {
        ClientFrameTransport transport = ClientFrameTransport.ATTACHED.get(ctx.getConnection());
        if (transport != null) {
            transport.onClosed();
        }
        return ctx.getInvokeAction();
    }
}
