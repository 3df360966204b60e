/**
 * The auto-configured Thrift server: {@link dev.grizzlyboot.autoconfigure.thrift.server.ThriftService}
 * marks handler beans, {@code grizzly.thrift.server.*} sets the server up, and
 * {@link dev.grizzlyboot.autoconfigure.thrift.server.ThriftServerCustomizer} covers the rest.
 */
package dev.grizzlyboot.autoconfigure.thrift.server;
