package dev.grizzlyboot.autoconfigure.internal;

import java.time.Duration;

import org.springframework.util.Assert;
import org.springframework.util.unit.DataSize;

/**
 * Range checks for property setters. Thrown from a setter, a value out of range is a bind failure
 * that Boot reports with the property, its value and its origin; checked later, where the value is
 * used (an int the client takes, a cache configuration built with the cache manager), it failed as
 * an exception that named no property. Each check lets {@code null} (unset) through. Stateless.
 */
public final class PropertyBounds {

    private PropertyBounds() {
    }

    /** A size taken as an int number of bytes. */
    public static void fitsIntBytes(DataSize size) {
        Assert.isTrue(size == null || size.toBytes() <= Integer.MAX_VALUE, "must be at most 2147483647B");
    }

    /** A duration taken as an int number of milliseconds. */
    public static void fitsIntMillis(Duration duration) {
        Assert.isTrue(duration == null || duration.toMillis() <= Integer.MAX_VALUE, "must be at most 2147483647ms");
    }

    /** A duration that must not be negative. */
    public static void notNegative(Duration duration) {
        Assert.isTrue(duration == null || !duration.isNegative(), "must not be negative");
    }

    /** A TTL jitter: a share of the TTL, at least 0 and below 1. */
    public static void jitter(Double jitter) {
        Assert.isTrue(jitter == null || (jitter >= 0 && jitter < 1), "must be at least 0 and below 1");
    }
}
