package dev.grizzlyboot.autoconfigure.thrift.server;

import dev.grizzlyboot.thrift.server.ThriftServerBuilder;

/**
 * Adjusts the auto-configured {@link ThriftServerBuilder} after the {@code grizzly.thrift.server.*}
 * properties are applied, for settings that have no property (a backlog, a stop deadline, an
 * {@code SSLContext} built by hand). Beans of this type run in {@code @Order}; called once, on the
 * start-up thread.
 */
@FunctionalInterface
public interface ThriftServerCustomizer {

    /**
     * Customizes the builder.
     *
     * @param builder the server's builder, with the properties applied
     */
    void customize(ThriftServerBuilder builder);
}
