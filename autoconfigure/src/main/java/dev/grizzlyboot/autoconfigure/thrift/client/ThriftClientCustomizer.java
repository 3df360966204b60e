package dev.grizzlyboot.autoconfigure.thrift.client;

import dev.grizzlyboot.thrift.client.ThriftClientBuilder;

/**
 * Adjusts the builder of each client from {@code grizzly.thrift.clients.<name>.*} after the
 * properties are applied, for settings that have no property (minimum connections, a health-check
 * interval, an {@code SSLContext} built by hand). Beans of this type run in {@code @Order}, once
 * per client, on the thread that first needs the client.
 */
@FunctionalInterface
public interface ThriftClientCustomizer {

    /**
     * Customizes one client's builder.
     *
     * @param clientName the client's name, the key under {@code grizzly.thrift.clients}
     * @param builder    the builder, with the properties applied
     */
    void customize(String clientName, ThriftClientBuilder builder);
}
