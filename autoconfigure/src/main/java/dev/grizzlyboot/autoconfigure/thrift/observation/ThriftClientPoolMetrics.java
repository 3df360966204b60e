package dev.grizzlyboot.autoconfigure.thrift.observation;

import java.util.Set;
import java.util.function.ToIntFunction;

import dev.grizzlyboot.autoconfigure.thrift.client.ThriftClients;
import dev.grizzlyboot.thrift.client.ThriftClient;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Gauges per client of {@code grizzly.thrift.clients}: {@code thrift.client.connections} (tag
 * {@code state}: busy, idle) and {@code thrift.client.servers} (tag {@code state}: in_rotation,
 * out_of_rotation), each tagged with {@code client}. A client not yet built reads 0. Bound once by
 * Boot's meter registry post-processor; the gauges read the pools when scraped, from any thread.
 */
public final class ThriftClientPoolMetrics implements MeterBinder {
    private final ThriftClients clients;
    private final Set<String> names;

    ThriftClientPoolMetrics(ThriftClients clients, Set<String> names) {
        this.clients = clients;
        this.names = Set.copyOf(names);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (String name : names) {
            gauge(registry, "thrift.client.connections", name, "busy", "Connections lent to calls", ThriftClient::busyConnections);
            gauge(registry, "thrift.client.connections", name, "idle", "Open connections waiting for a call",
                    ThriftClient::idleConnections);
            gauge(registry, "thrift.client.servers", name, "in_rotation", "Servers calls go to",
                    client -> client.serversInRotation().size());
            gauge(registry, "thrift.client.servers", name, "out_of_rotation", "Servers taken out of rotation",
                    client -> client.servers().size() - client.serversInRotation().size());
        }
    }

    private void gauge(MeterRegistry registry, String meter, String name, String state, String description,
                       ToIntFunction<ThriftClient> value) {
        Gauge.builder(meter, clients, all -> {
                    ThriftClient client = all.clients().get(name);
                    return client == null ? 0 : value.applyAsInt(client);
                })
                .tag("client", name)
                .tag("state", state)
                .description(description)
                .register(registry);
    }
}
