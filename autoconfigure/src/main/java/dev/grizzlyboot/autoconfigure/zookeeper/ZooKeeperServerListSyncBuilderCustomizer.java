package dev.grizzlyboot.autoconfigure.zookeeper;

import dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync;

/**
 * Adjusts the ZooKeeper sync's builder after the {@code grizzly.memcached.zookeeper.*} properties
 * are applied and before the sync starts, for anything the properties do not cover (the meter
 * registry is handed over this way). Beans of this type are applied in {@code @Order}; called once,
 * at start-up.
 */
@FunctionalInterface
public interface ZooKeeperServerListSyncBuilderCustomizer {

    /**
     * Adjusts the builder.
     *
     * @param builder the builder, with the properties already applied
     */
    void customize(ZooKeeperServerListSync.Builder builder);
}
