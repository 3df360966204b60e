/**
 * Actuator health of memcached: the {@code memcached} contributor (servers, states, a VERSION
 * round trip) and the {@code memcachedZookeeper} contributor (the coordinated server list).
 */
package dev.grizzlyboot.autoconfigure.memcached.health;
