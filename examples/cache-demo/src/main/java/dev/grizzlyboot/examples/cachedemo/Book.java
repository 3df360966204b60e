package dev.grizzlyboot.examples.cachedemo;

import java.io.Serializable;

/**
 * A book. Serializable because the cache stores it in memcached with Java serialization; its
 * package is on the deserialization allow-list ({@code grizzly.memcached.transcoder.allowed-classes}).
 */
public record Book(String isbn, String title, String author) implements Serializable {
}
