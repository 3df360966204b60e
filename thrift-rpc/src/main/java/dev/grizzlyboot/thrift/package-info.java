/**
 * Apache Thrift servers and pooled clients whose transport is Grizzly NIO.
 *
 * <p>{@link dev.grizzlyboot.thrift.server.ThriftServer} serves any blocking {@code TProcessor};
 * {@link dev.grizzlyboot.thrift.client.ThriftClient} turns a generated {@code Iface} into a
 * thread-safe proxy over pooled connections to one or more servers. Both speak the framed
 * transport, so they interoperate with libthrift's {@code TFramedTransport} peers.
 */
package dev.grizzlyboot.thrift;
