package dev.grizzlyboot.thrift.transport;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.glassfish.grizzly.CompletionHandler;
import org.glassfish.grizzly.nio.NIOConnection;
import org.glassfish.grizzly.nio.NIOTransport;
import org.glassfish.grizzly.nio.SelectorHandler;
import org.glassfish.grizzly.nio.tmpselectors.TemporarySelectorPool;

/**
 * Lets a worker thread take a plain TCP connection from its Grizzly selector and wait for the
 * connection's next request on a selector of its own, so that the thread woken by a request is
 * the one that runs it. The connection is read by exactly one side at a time: when the selector
 * thread starts a worker for a connection's queued calls it asks itself, as a task for between two
 * selects, to stop reading it; the worker starts reading only once its calls have ended and no
 * other is pending, and gives the connection back by turning the selector's read interest on
 * again, so bytes that arrive meanwhile wait in the socket for the selector. The worker waits on a
 * selector from the server's pool of them (Grizzly's {@link TemporarySelectorPool}), registered
 * for the time it holds the connection. Thread-safe: {@link #requestTake()} from the selector
 * thread, {@link #wakeUp()} and {@link #release} from any thread, the rest from the worker.
 */
final class ConnectionReader {
    private final ServerSession session;
    private final NIOConnection connection;
    private final SocketChannel channel;
    private final TemporarySelectorPool selectors;
    /** The selector the worker waits on while it holds the connection, or null. */
    private volatile Selector waiting;
    /** The connection's registration with {@link #waiting}; only the worker holding it uses it. */
    private SelectionKey registration;

    ConnectionReader(ServerSession session, NIOConnection connection, TemporarySelectorPool selectors) {
        this.session = session;
        this.connection = connection;
        this.selectors = selectors;
        this.channel = (SocketChannel) connection.getChannel();
        connection.addCloseListener((closed, type) -> wakeUp());
    }

    /**
     * Asks the connection's selector thread to stop reading it, so that the worker about to run
     * its queued calls can go on reading it afterwards. Call it on the selector thread, as it
     * queues the frame that starts that worker: the selector thread then answers between this
     * select and the next, before it could read the connection again, and the worker seldom has
     * to wait for the answer. The answer is false if reading is paused, another worker holds the
     * connection, or the connection or the selector is closing.
     */
    CompletableFuture<Boolean> requestTake() {
        CompletableFuture<Boolean> taken = new CompletableFuture<>();
        SelectorHandler selectorHandler = ((NIOTransport) connection.getTransport()).getSelectorHandler();
        selectorHandler.enque(connection.getSelectorRunner(), () -> {
            taken.complete(session.takeFromSelector());
            return true;
        }, new CompletionHandler<>() {
            @Override
            public void cancelled() {
                taken.complete(false);
            }

            @Override
            public void failed(Throwable throwable) {
                taken.complete(false);
            }

            @Override
            public void completed(SelectorHandler.Task result) {
                taken.complete(false);
            }

            @Override
            public void updated(SelectorHandler.Task result) {
                // Only the outcome matters.
            }
        });
        return taken;
    }

    /**
     * Starts holding the connection on this worker once the selector thread has let it go
     * ({@code take}, from {@link #requestTake()}); waits for that answer if it has not come yet.
     * Returns false, having given the connection back, if it was not let go, if a call is pending
     * (a worker started before the selector thread let go runs it and reads next), or if no
     * selector could be had. Call it only once this worker's own queued calls have all ended.
     */
    boolean hold(CompletableFuture<Boolean> take) {
        boolean took;
        try {
            took = take.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            release(take);
            return false;
        } catch (ExecutionException e) {
            return false;
        }
        if (!took) {
            return false;
        }
        if (!session.noCallPending()) {
            session.giveToSelector();
            return false;
        }
        Selector own = null;
        try {
            own = selectors.poll();
            if (own == null) {
                throw new IOException("no selector could be opened");
            }
            registration = channel.register(own, SelectionKey.OP_READ);
            waiting = own;
        } catch (IOException | RuntimeException e) {
            selectors.offer(own);
            session.giveToSelector();
            // A closed connection, or no selector to be had: the selector thread reads what is left.
            return false;
        }
        if (!connection.isOpen()) {
            // A close that ran before this selector was visible found nothing to wake.
            wakeUp();
        }
        return true;
    }

    /**
     * Gives the connection back as soon as the selector thread has let it go ({@code take}, from
     * {@link #requestTake()}), for a worker that will not hold it; does not wait.
     */
    void release(CompletableFuture<Boolean> take) {
        take.thenAccept(took -> {
            if (took) {
                session.giveToSelector();
            }
        });
    }

    /**
     * Waits up to {@code waitMillis} (at least 1) for bytes and reads them into {@code assembler}.
     * Waits first: a request rarely follows its reply at once, and a select finds bytes already
     * there anyway.
     *
     * @return the bytes read, 0 if none came in time or the wait was woken (also by a wake-up meant
     *         for the selector's previous user), -1 at the end of the stream
     * @throws IOException if the connection failed or closed
     */
    int read(FrameAssembler assembler, long waitMillis) throws IOException {
        Selector own = waiting;
        if (own.select(waitMillis) == 0) {
            return 0;
        }
        own.selectedKeys().clear();
        return assembler.readFrom(channel);
    }

    /** Gives the connection back to its selector thread; bytes that arrived meanwhile are read there. */
    void giveBack() {
        Selector own = waiting;
        waiting = null;
        if (own != null) {
            // The pool's selectNow deregisters the cancelled key and clears a wake-up asked for meanwhile.
            registration.cancel();
            selectors.offer(own);
        }
        session.giveToSelector();
    }

    /** Wakes the worker waiting on the connection, if any, so it sees a close or a pause. */
    void wakeUp() {
        Selector own = waiting;
        if (own != null) {
            own.wakeup();
        }
    }
}
