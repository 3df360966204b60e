/**
 * The memcached binary protocol: request encoding, incremental response decoding as a Grizzly
 * filter, and operations, which pair the requests a caller sends with the responses that
 * complete them. Internal: public only so the client's other packages can use it.
 */
package dev.grizzlyboot.memcached.protocol;
