/**
 * The memcached binary protocol: request encoding, incremental response decoding as a Grizzly
 * filter, and operations, which pair the requests a caller sends with the responses that
 * complete them. Internal: public only for the client's other packages; not an API, and it may
 * change in any release.
 */
package dev.grizzlyboot.memcached.internal.protocol;
