/**
 * Which server a key lives on: server addresses and the Ketama consistent-hashing ring.
 */
package dev.grizzlyboot.memcached.cluster;
