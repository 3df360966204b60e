/**
 * Health contributors for Thrift: {@code thriftServer} (is the server listening, how many
 * connections are open) and {@code thriftClients} (which servers each client has in rotation).
 */
package dev.grizzlyboot.autoconfigure.thrift.health;
