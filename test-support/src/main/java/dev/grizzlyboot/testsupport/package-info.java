/**
 * Real servers for tests: {@link dev.grizzlyboot.testsupport.MemcachedExtension} starts, kills,
 * pauses and restarts {@code memcached} processes on free loopback ports, and
 * {@link dev.grizzlyboot.testsupport.ZooKeeperExtension} runs a real ZooKeeper in the JVM
 * ({@link dev.grizzlyboot.testsupport.CountingZooKeeperServer} also counts, on the server, every
 * request and watch notification). {@link dev.grizzlyboot.testsupport.ChildJvm} runs a client in a
 * JVM of its own, which can resolve host names through a {@link dev.grizzlyboot.testsupport.HostsFile}.
 * Used by every module's tests and by the examples.
 */
package dev.grizzlyboot.testsupport;
