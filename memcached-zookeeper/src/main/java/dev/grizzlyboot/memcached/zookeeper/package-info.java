/**
 * Keeps the server lists of many memcached clients in step through ZooKeeper: a change is
 * proposed once, every client prepares it, and all of them switch at the same agreed moment.
 * Module {@code grizzlyboot-memcached-zookeeper}, on Apache Curator. Start at
 * {@link dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync}.
 */
package dev.grizzlyboot.memcached.zookeeper;
