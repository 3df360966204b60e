package dev.grizzlyboot.autoconfigure.thrift.server;

import java.net.BindException;
import java.util.Locale;

import dev.grizzlyboot.thrift.server.ThriftServerBindException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.NestedExceptionUtils;

/**
 * Explains a start-up that failed because the Thrift server's port is taken, as Boot's
 * {@code PortInUseFailureAnalyzer} does for web servers (which does not know our exception).
 * Other bind failures are left to the default report. Registered in
 * {@code META-INF/spring.factories}; Spring Boot creates and calls it when the application fails
 * to start.
 */
class ThriftServerPortInUseFailureAnalyzer extends AbstractFailureAnalyzer<ThriftServerBindException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ThriftServerBindException cause) {
        if (!portInUse(cause)) {
            return null;
        }
        String description = "Thrift server failed to start. Port %d was already in use.".formatted(cause.port());
        String action = """
                Identify and stop the process that's listening on port %d or configure this application's Thrift \
                server to listen on another port with 'grizzly.thrift.server.port' (0 picks a free one).""".formatted(cause.port());
        return new FailureAnalysis(description, action, cause);
    }

    /** The JDK reports a taken port only in the message ("Address already in use"), as Boot relies on too. */
    private static boolean portInUse(ThriftServerBindException exception) {
        return NestedExceptionUtils.getRootCause(exception) instanceof BindException bind && bind.getMessage() != null
                && bind.getMessage().toLowerCase(Locale.ROOT).contains("in use");
    }
}
