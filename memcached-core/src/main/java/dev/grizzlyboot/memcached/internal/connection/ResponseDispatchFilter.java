package dev.grizzlyboot.memcached.internal.connection;

import java.io.IOException;

import dev.grizzlyboot.memcached.internal.protocol.Response;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

/** Last filter of the chain: hands each decoded response to the connection it arrived on. Stateless. */
final class ResponseDispatchFilter extends BaseFilter {

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        Response response = ctx.getMessage();
        MemcachedConnection connection = MemcachedConnection.ATTRIBUTE.get(ctx.getConnection());
        if (connection != null) {
            connection.onResponse(response);
        }
        return ctx.getStopAction();
    }
}
