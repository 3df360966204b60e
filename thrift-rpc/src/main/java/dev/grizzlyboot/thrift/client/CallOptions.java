package dev.grizzlyboot.thrift.client;

import java.time.Duration;

/**
 * How a proxy runs one method: whether a sent request may run again on another server, and how
 * long each attempt waits for the reply (null: the client's read timeout). Immutable.
 */
record CallOptions(boolean idempotent, Duration readTimeout) {
    static final CallOptions DEFAULT = new CallOptions(false, null);
}
