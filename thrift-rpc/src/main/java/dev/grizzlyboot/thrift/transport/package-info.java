/**
 * Grizzly filters and Thrift transports for the framed protocol: {@link
 * dev.grizzlyboot.thrift.transport.ThriftFrameFilter} splits and frames messages, {@link
 * dev.grizzlyboot.thrift.transport.ThriftServerFilter} runs a processor per request, and {@link
 * dev.grizzlyboot.thrift.transport.ThriftClientFilter} with {@link
 * dev.grizzlyboot.thrift.transport.ClientFrameTransport} carries a client's calls.
 */
package dev.grizzlyboot.thrift.transport;
