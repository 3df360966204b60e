package dev.grizzlyboot.memcached.internal.connection;

import java.io.IOException;
import java.util.List;

import dev.grizzlyboot.memcached.internal.protocol.Response;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;

/** Last filter of the chain: hands the responses decoded from one read, in order, to the connection they arrived on. Stateless. */
final class ResponseDispatchFilter extends BaseFilter {

    @Override
    public NextAction handleRead(FilterChainContext ctx) throws IOException {
        List<Response> responses = ctx.getMessage();
        MemcachedConnection connection = MemcachedConnection.ATTRIBUTE.get(ctx.getConnection());
        if (connection != null) {
            for (Response response : responses) {
                connection.onResponse(response);
            }
        }
        return ctx.getStopAction();
    }
}
