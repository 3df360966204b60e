/**
 * Micrometer wiring for Thrift: every server and client call as an observation
 * ({@code thrift.server.requests}, {@code thrift.client.requests}) and pool gauges per client.
 */
package dev.grizzlyboot.autoconfigure.thrift.observation;
