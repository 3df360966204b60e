package dev.grizzlyboot.memcached;

/**
 * A {@link ValueTooLargeException} this client raised itself, before sending anything: callers see
 * the public type; the client tells from this one that memcached never saw the set (and so did not
 * delete the key's old item, as it does when it refuses one itself).
 */
final class UnsentValueTooLargeException extends ValueTooLargeException {

    private static final long serialVersionUID = 1L;

    UnsentValueTooLargeException(String message) {
        super(message);
    }
}
