/**
 * Docker Compose service connections for memcached: Spring Boot's {@code spring-boot-docker-compose}
 * starts the application's {@code compose.yaml} and this package turns its memcached service into
 * {@link dev.grizzlyboot.autoconfigure.memcached.MemcachedConnectionDetails}.
 */
package dev.grizzlyboot.autoconfigure.memcached.docker.compose;
