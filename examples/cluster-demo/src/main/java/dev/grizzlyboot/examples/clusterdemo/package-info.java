/**
 * The cluster demo: two application instances on one ZooKeeper switch memcached server lists at
 * the same moment, driven through {@code /actuator/memcached}. Start at
 * {@link dev.grizzlyboot.examples.clusterdemo.ClusterDemo}.
 */
package dev.grizzlyboot.examples.clusterdemo;
