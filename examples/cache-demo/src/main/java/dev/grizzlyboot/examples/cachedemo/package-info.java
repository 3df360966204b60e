/**
 * The README's main example: a Spring Boot application whose slow repository sits behind
 * {@code @Cacheable} on memcached, with a showcase that calls it over HTTP and prints the timings.
 */
package dev.grizzlyboot.examples.cachedemo;
