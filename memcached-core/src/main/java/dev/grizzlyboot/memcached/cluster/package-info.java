/**
 * The client's view of its servers: addresses, each server's health and its changes, Ketama key
 * naming, and prepared server-list changes that apply in one step. The routing itself lives in
 * {@code dev.grizzlyboot.memcached.internal.cluster}.
 */
package dev.grizzlyboot.memcached.cluster;
