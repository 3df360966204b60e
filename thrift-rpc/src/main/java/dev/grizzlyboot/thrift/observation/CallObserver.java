package dev.grizzlyboot.thrift.observation;

/**
 * Told about every call a server handles or a client makes, to time and count them. Servers and
 * clients call it on the thread that runs the call, for many calls at once, so implementations
 * must be thread-safe and quick.
 */
@FunctionalInterface
public interface CallObserver {

    /**
     * Called when a call starts.
     *
     * @param name   the service (on a server: the multiplexed name, or the service's own) or the
     *               client's name (on a client)
     * @param method the method name
     * @return the handle to tell how the call ended
     */
    ObservedCall start(String name, String method);

    /** One call being observed; {@link #end} is called exactly once. */
    @FunctionalInterface
    interface ObservedCall {

        /**
         * Records how the call ended.
         *
         * @param outcome the outcome
         * @param error   the exception the call ended with, or null
         */
        void end(CallOutcome outcome, Throwable error);
    }
}
