/**
 * How values become stored bytes and back: the {@link dev.grizzlyboot.memcached.transcoder.Transcoder}
 * interface, the default transcoder (strings, primitives, byte arrays, allow-listed Java
 * serialization, compression) and the raw {@link dev.grizzlyboot.memcached.transcoder.CachedData}
 * form with its flags.
 */
package dev.grizzlyboot.memcached.transcoder;
