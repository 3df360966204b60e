/**
 * Micrometer meters of the memcached Spring cache ({@code cache.gets}, {@code cache.puts},
 * {@code cache.evictions}, {@code cache.removals}). Needs Micrometer; the binder provider also
 * Spring Boot's {@code spring-boot-cache}.
 */
package dev.grizzlyboot.cache.metrics;
