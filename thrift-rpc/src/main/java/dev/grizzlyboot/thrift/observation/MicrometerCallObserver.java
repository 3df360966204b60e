package dev.grizzlyboot.thrift.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

/**
 * Records each call as a Micrometer {@link Observation} named {@code thrift.server.requests} or
 * {@code thrift.client.requests}, with low-cardinality key values {@code service} (server) or
 * {@code client} (client), {@code method} and {@code outcome}, set when the call ends; with a
 * meter handler these become timers of the same name and tags, and with a tracer, spans named
 * {@code name/method}. Thread-safe.
 */
public final class MicrometerCallObserver implements CallObserver {
    /** The server-side observation name. */
    public static final String SERVER_REQUESTS = "thrift.server.requests";
    /** The client-side observation name. */
    public static final String CLIENT_REQUESTS = "thrift.client.requests";

    private final ObservationRegistry registry;
    private final String observationName;
    private final String nameKey;

    private MicrometerCallObserver(ObservationRegistry registry, String observationName, String nameKey) {
        this.registry = registry;
        this.observationName = observationName;
        this.nameKey = nameKey;
    }

    /**
     * Observes the calls a server handles, as {@value #SERVER_REQUESTS} tagged with the service.
     *
     * @param registry where the observations go
     * @return an observer for {@code ThriftServerBuilder.callObserver}
     */
    public static MicrometerCallObserver server(ObservationRegistry registry) {
        return new MicrometerCallObserver(registry, SERVER_REQUESTS, "service");
    }

    /**
     * Observes the calls a client makes, as {@value #CLIENT_REQUESTS} tagged with the client's name.
     *
     * @param registry where the observations go
     * @return an observer for {@code ThriftClientBuilder.callObserver}
     */
    public static MicrometerCallObserver client(ObservationRegistry registry) {
        return new MicrometerCallObserver(registry, CLIENT_REQUESTS, "client");
    }

    @Override
    public ObservedCall start() {
        Observation observation = Observation.start(observationName, registry);
        return (name, method, outcome, error) -> {
            observation.contextualName(name + "/" + method)
                    .lowCardinalityKeyValue(nameKey, name)
                    .lowCardinalityKeyValue("method", method)
                    .lowCardinalityKeyValue("outcome", outcome.tagValue());
            if (error != null && outcome != CallOutcome.SUCCESS) {
                observation.error(error);
            }
            observation.stop();
        };
    }
}
