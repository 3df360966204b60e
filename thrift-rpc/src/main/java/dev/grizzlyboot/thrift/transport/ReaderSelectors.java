package dev.grizzlyboot.thrift.transport;

import java.io.IOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The selectors connection readers wait on, kept open between takes: a worker that takes a
 * connection registers it with an idle selector instead of opening one (an epoll instance and a
 * wake-up descriptor) per take and closing it per give-back. It keeps at most as many as were in
 * use at once, and none once closed. Thread-safe.
 */
final class ReaderSelectors {
    private final Deque<Selector> idle = new ArrayDeque<>();
    private boolean closed;

    /**
     * Returns an idle selector with no channel registered, or a new one.
     *
     * @throws IOException if a selector cannot be opened, or once closed
     */
    Selector take() throws IOException {
        synchronized (this) {
            if (closed) {
                throw new IOException("the server is stopping");
            }
            Selector kept = idle.pollFirst();
            if (kept != null) {
                return kept;
            }
        }
        return Selector.open();
    }

    /**
     * Deregisters what {@code selector} watches and keeps it for the next take. A wake-up asked for
     * meanwhile is cleared too, so the next worker's first wait is a real one.
     */
    void release(Selector selector) {
        try {
            for (SelectionKey key : selector.keys()) {
                key.cancel();
            }
            // Cancelled keys leave the selector at its next select; this one also clears a wake-up.
            selector.selectNow();
        } catch (IOException | ClosedSelectorException e) {
            closeQuietly(selector);
            return;
        }
        synchronized (this) {
            if (!closed) {
                idle.push(selector);
                return;
            }
        }
        closeQuietly(selector);
    }

    /** Closes the idle selectors; selectors released later are closed too. */
    void close() {
        Selector[] open;
        synchronized (this) {
            closed = true;
            open = idle.toArray(new Selector[0]);
            idle.clear();
        }
        for (Selector selector : open) {
            closeQuietly(selector);
        }
    }

    private static void closeQuietly(Selector selector) {
        try {
            selector.close();
        } catch (IOException e) {
            // Nothing else holds it; closing releases its descriptors either way.
        }
    }
}
