package dev.grizzlyboot.memcached;

/** What happened to one key of a bulk operation. */
public enum Outcome {
    /** A read found the key. */
    FOUND,
    /** The key does not exist (a read missed, or a delete/cas found nothing). */
    NOT_FOUND,
    /** A write stored the value. */
    STORED,
    /** A write's condition did not hold, so nothing was stored. */
    NOT_STORED,
    /** A CAS token no longer matched. */
    EXISTS,
    /** A delete removed the key. */
    DELETED,
    /** The key's operation failed; {@link KeyResult#error()} says why. */
    ERROR
}
