package dev.grizzlyboot.memcached.internal.protocol;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * STAT: the server answers with one response per statistic and ends with an empty one.
 * Threading as for {@link Operation}; the map is only touched by the I/O thread until completion.
 */
public final class StatsOperation extends Operation<Map<String, String>> {

    private final String group;
    private final Map<String, String> stats = new LinkedHashMap<>();

    public StatsOperation(String group, long timeoutNanos) {
        super(new Request[] {Request.stat(group)}, timeoutNanos);
        this.group = group;
    }

    @Override
    public boolean isLast(Response response) {
        return !response.ok() || response.key().length == 0;
    }

    @Override
    public void onResponse(Response response) {
        if (!response.ok()) {
            fail(statusError(response));
        } else if (response.key().length == 0) {
            complete(stats);
        } else {
            stats.put(response.keyText(), response.valueText());
        }
    }

    @Override
    protected String describe() {
        return group.isEmpty() ? "stats" : "stats " + group;
    }
}
