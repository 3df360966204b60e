/**
 * The Thrift server: {@link dev.grizzlyboot.thrift.server.ThriftServer}, its builder and the
 * choice of {@link dev.grizzlyboot.thrift.server.IoStrategy}.
 */
package dev.grizzlyboot.thrift.server;
