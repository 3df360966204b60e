package dev.grizzlyboot.memcached;

/** What a compare-and-swap did. */
public enum CasResult {
    /** The token matched and the new value is stored. */
    STORED,
    /** Someone else changed the value since the token was read; nothing was stored. */
    EXISTS,
    /** The key is gone; nothing was stored. */
    NOT_FOUND
}
