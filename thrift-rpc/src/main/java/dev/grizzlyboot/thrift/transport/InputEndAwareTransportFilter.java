package dev.grizzlyboot.thrift.transport;

import java.io.IOException;
import java.util.function.Consumer;

import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.filterchain.TransportFilter;
import org.glassfish.grizzly.nio.transport.TCPNIOConnection;
import org.glassfish.grizzly.nio.transport.TCPNIOUtils;

/**
 * Grizzly's transport filter, except that a TCP read that finds the end of the client's input
 * (the client shut down its output and waits for its replies, or closed) is reported to
 * {@code inputEnded} instead of terminating the connection: Grizzly's own read terminates it at
 * once, dropping the replies of calls still queued or running, where libthrift's servers answer
 * every request read before the end of input. A read allocates and fills its buffer as Grizzly's
 * does, but tells no connection probes (none is registered here) and skips Grizzly's Windows-only
 * close after 100 empty reads; writes, events and blocking reads are Grizzly's filter's.
 */
final class InputEndAwareTransportFilter extends TransportFilter {
    private final Consumer<Connection<?>> inputEnded;

    InputEndAwareTransportFilter(Consumer<Connection<?>> inputEnded) {
        this.inputEnded = inputEnded;
    }

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        if (!(ctx.getConnection() instanceof TCPNIOConnection connection) || ctx.getMessage() != null
                || ctx.getTransportContext().isBlocking()) {
            return super.handleRead(ctx);
        }
        Buffer read;
        try {
            read = TCPNIOUtils.allocateAndReadBuffer(connection);
        } catch (IOException e) {
            // The end of the stream, or a reset whose replies will fail to write and close it.
            inputEnded.accept(connection);
            return ctx.getStopAction();
        }
        if (read.position() == 0) {
            return ctx.getStopAction();
        }
        read.trim();
        ctx.setMessage(read);
        return ctx.getInvokeAction();
    }
}
