/**
 * Connections to one memcached server: each pipelines many requests and coalesces concurrent
 * callers' requests into shared socket writes; a pool per server opens, balances, replaces and
 * evicts them; a sweeper enforces operation timeouts. Internal: public only for the client's
 * other packages; not an API, and it may change in any release.
 */
package dev.grizzlyboot.memcached.internal.connection;
