/**
 * Auto-configuration of Thrift on Grizzly: the server for {@code @ThriftService} handler beans
 * ({@code server}), client beans from {@code grizzly.thrift.clients.*} ({@code client}), and their
 * health and metrics.
 */
package dev.grizzlyboot.autoconfigure.thrift;
