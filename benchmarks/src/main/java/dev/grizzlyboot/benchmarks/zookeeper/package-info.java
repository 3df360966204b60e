/**
 * The ZooKeeper sync at fleet scale: N members (each its own client and session) switch server
 * lists while a counting ZooKeeper server records the requests and watch events each change costs
 * ({@code benchmarks/run-zookeeper.sh}).
 */
package dev.grizzlyboot.benchmarks.zookeeper;
