/**
 * Auto-configuration of the ZooKeeper-coordinated memcached server list:
 * {@code grizzly.memcached.zookeeper.*} properties, the Curator client and the
 * {@link dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync} bean.
 */
package dev.grizzlyboot.autoconfigure.zookeeper;
