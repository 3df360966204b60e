/**
 * Helpers shared by the auto-configurations. Not public API: may change in any release.
 */
package dev.grizzlyboot.autoconfigure.internal;
