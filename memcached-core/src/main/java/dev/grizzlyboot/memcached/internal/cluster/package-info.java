/**
 * Where each key goes: the Ketama ring, the immutable topology that is swapped whole on every
 * server-list or health change, per-server failure counting and failback probes. Internal: public
 * only for the client's other packages; not an API, and it may change in any release.
 */
package dev.grizzlyboot.memcached.internal.cluster;
