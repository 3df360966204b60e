/**
 * The memcached load harness: every client (ours and the peers) drives the same workloads against
 * the same servers in one run, and the report prints medians and ratios.
 */
package dev.grizzlyboot.benchmarks.memcached;
