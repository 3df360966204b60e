package dev.grizzlyboot.memcached;

/**
 * The result of one key within a bulk operation. Immutable.
 *
 * @param outcome what happened
 * @param value   the value read, for {@link Outcome#FOUND}; otherwise {@code null}
 * @param cas     the CAS token read by {@code getsMulti}; otherwise 0
 * @param error   why it failed, for {@link Outcome#ERROR}; otherwise {@code null}
 * @param <T>     the value's type
 */
public record KeyResult<T>(Outcome outcome, T value, long cas, MemcachedException error) {

    /**
     * Whether the key's operation did what was asked (found, stored or deleted).
     *
     * @return {@code true} for {@link Outcome#FOUND}, {@link Outcome#STORED} and {@link Outcome#DELETED}
     */
    public boolean succeeded() {
        return outcome == Outcome.FOUND || outcome == Outcome.STORED || outcome == Outcome.DELETED;
    }
}
