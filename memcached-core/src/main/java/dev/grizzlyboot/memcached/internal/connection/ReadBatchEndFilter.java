package dev.grizzlyboot.memcached.internal.connection;

import java.io.IOException;

import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

/**
 * Sits before the codec and, once per read event, asks Grizzly to call the connection's drain
 * when the event is done, i.e. after every response in the bytes just read has been dispatched.
 * Requests queued while those responses were processed then leave in one write. It also tells
 * the connection that the server sent something, even a fragment the codec cannot decode yet:
 * whether a server that closed a new text connection said anything first tells a dying server
 * from one that refuses the text protocol. Stateless.
 */
final class ReadBatchEndFilter extends BaseFilter {

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        MemcachedConnection connection = MemcachedConnection.ATTRIBUTE.get(ctx.getConnection());
        if (connection != null) {
            connection.heard();
            ctx.addCompletionListener(connection.drainAfterRead);
        }
        return ctx.getInvokeAction();
    }
}
