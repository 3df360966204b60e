/**
 * Thrift client beans from {@code grizzly.thrift.clients.<name>.*}: each entry becomes a bean of
 * its service's generated {@code Iface} type named {@code <name>}, backed by a pooled
 * {@link dev.grizzlyboot.thrift.client.ThriftClient} that {@link
 * dev.grizzlyboot.autoconfigure.thrift.client.ThriftClients} owns and closes with the context.
 */
package dev.grizzlyboot.autoconfigure.thrift.client;
