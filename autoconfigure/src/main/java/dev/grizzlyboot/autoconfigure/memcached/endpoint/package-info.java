/**
 * The {@code memcached} actuator endpoint: servers, states, versions, pool and near-cache
 * figures, the coordinated server list, per-server {@code stats}, and proposals of a new list.
 */
package dev.grizzlyboot.autoconfigure.memcached.endpoint;
