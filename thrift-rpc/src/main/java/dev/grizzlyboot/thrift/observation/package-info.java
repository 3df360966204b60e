/**
 * Hooks for observing Thrift calls: {@link dev.grizzlyboot.thrift.observation.CallObserver} is the
 * plain-Java hook servers and clients call, and {@link
 * dev.grizzlyboot.thrift.observation.MicrometerCallObserver} records each call as a Micrometer
 * {@code Observation} ({@code thrift.server.requests}, {@code thrift.client.requests}). Micrometer
 * is an optional dependency: only {@code MicrometerCallObserver} needs it.
 */
package dev.grizzlyboot.thrift.observation;
