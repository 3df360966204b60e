/**
 * The pooled, failover Thrift client: {@link dev.grizzlyboot.thrift.client.ThriftClient} and the
 * typed proxies it makes from generated {@code Iface} interfaces.
 */
package dev.grizzlyboot.thrift.client;
