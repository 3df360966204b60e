/**
 * {@code @ServiceConnection} support for memcached Testcontainers containers (optional: active
 * only when spring-boot-testcontainers and Testcontainers are on the class path).
 */
package dev.grizzlyboot.autoconfigure.memcached.testcontainers;
