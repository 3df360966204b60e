/**
 * The Thrift benchmark: our server and client against libthrift's servers and a plain
 * {@code TSocket} client, side by side in one run.
 */
package dev.grizzlyboot.benchmarks.thrift;
