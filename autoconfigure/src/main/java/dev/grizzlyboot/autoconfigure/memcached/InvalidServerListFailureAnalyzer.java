package dev.grizzlyboot.autoconfigure.memcached;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start-up that failed on a malformed {@code grizzly.memcached.servers}: which entry is
 * wrong and how server addresses are written. Registered in {@code META-INF/spring.factories};
 * Spring Boot creates and calls it when the application fails to start.
 */
class InvalidServerListFailureAnalyzer extends AbstractFailureAnalyzer<InvalidServerListException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidServerListException cause) {
        String description = ("The memcached server list in 'grizzly.memcached.servers' is not valid.%n%n"
                + "    Value: %s%n    Reason: %s").formatted(String.join(",", cause.servers()), cause.reason());
        String action = """
                Set 'grizzly.memcached.servers' to memcached servers as host:port, separated by commas or as a YAML \
                list, each server once, for example 127.0.0.1:11211,127.0.0.1:11212. A host alone means port 11211; \
                write IPv6 addresses in brackets, as [::1]:11211.""";
        return new FailureAnalysis(description, action, cause);
    }
}
