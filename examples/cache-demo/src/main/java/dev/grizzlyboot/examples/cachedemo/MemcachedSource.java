package dev.grizzlyboot.examples.cachedemo;

import java.util.function.BooleanSupplier;

/**
 * Where the demo's memcached comes from, chosen once at start-up: the servers the user configured,
 * else local {@code memcached} processes, else a memcached container on a local Docker engine
 * (through the starter's {@code @ServiceConnection} support), else nowhere, with a message that
 * says both ways to get one.
 */
enum MemcachedSource {

    /** {@code grizzly.memcached.servers} is set: use those servers. */
    CONFIGURED,
    /** The {@code memcached} binary is installed: start two local processes. */
    LOCAL_PROCESSES,
    /** No binary, but a Docker engine answers: run memcached in a container. */
    DOCKER_CONTAINER,
    /** Neither: the demo cannot run. */
    NONE;

    /** What to do when the source is {@link #NONE}. */
    static final String NONE_MESSAGE = "The cache demo needs memcached, and found neither the memcached binary nor a "
            + "Docker engine. Either install memcached ('sudo apt-get install -y memcached' on Debian/Ubuntu, "
            + "'brew install memcached' on macOS), or start Docker (the demo then runs memcached in a container), "
            + "or point the demo at your own servers with --grizzly.memcached.servers=host:port.";

    /**
     * The first source that is available, in the order above. The checks run lazily: asking Docker
     * takes a moment, so it is asked only when there is no binary.
     */
    static MemcachedSource choose(boolean configured, BooleanSupplier binaryInstalled, BooleanSupplier dockerAvailable) {
        if (configured) {
            return CONFIGURED;
        }
        if (binaryInstalled.getAsBoolean()) {
            return LOCAL_PROCESSES;
        }
        return dockerAvailable.getAsBoolean() ? DOCKER_CONTAINER : NONE;
    }
}
