package dev.grizzlyboot.thrift.observation;

/**
 * Told about every call a server handles or a client makes, to time and count them. Servers and
 * clients call it on the thread that runs the call, for many calls at once, so implementations
 * must be thread-safe and quick.
 */
@FunctionalInterface
public interface CallObserver {

    /**
     * Called when a call starts, before its names are trusted: a server learns whether the
     * service and method exist only from how its processor answers.
     *
     * @return the handle to tell how the call ended
     */
    ObservedCall start();

    /** One call being observed; {@link #end} is called exactly once. */
    @FunctionalInterface
    interface ObservedCall {

        /**
         * Records how the call ended.
         *
         * @param name    the service (on a server: the multiplexed name, or the generated service's
         *                simple name) or the client's name (on a client); {@value #UNKNOWN} on a
         *                server when the request named no service the processor serves
         * @param method  the method name, or {@value #UNKNOWN} on a server when the processor does
         *                not know it, so that names a client makes up never become tag values
         * @param outcome the outcome
         * @param error   the exception the call ended with, or null
         */
        void end(String name, String method, CallOutcome outcome, Throwable error);
    }

    /** The name recorded for a service or method that the server does not have. */
    String UNKNOWN = "unknown";
}
