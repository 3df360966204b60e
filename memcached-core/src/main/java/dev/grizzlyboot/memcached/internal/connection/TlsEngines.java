package dev.grizzlyboot.memcached.internal.connection;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

import org.glassfish.grizzly.ssl.SSLEngineConfigurator;

/**
 * Makes the client-side TLS engine for a connection to one server, from the context current at
 * the time (see {@link TlsSettings}), with HTTPS host-name verification against the host the
 * client was configured with (not the resolved address) when verification is on. Immutable.
 * Internal.
 */
final class TlsEngines extends SSLEngineConfigurator {

    private final TlsSettings settings;
    private final String host;
    private final int port;

    /**
     * @param host the server's host as configured, or {@code null} to use the host Grizzly passes
     * @param port the server's port, or -1
     */
    TlsEngines(TlsSettings settings, String host, int port) {
        this.settings = settings;
        this.host = host;
        this.port = port;
        this.clientMode = true;
    }

    @Override
    public SSLEngine createSSLEngine() {
        return createSSLEngine(null, -1);
    }

    @Override
    public SSLEngine createSSLEngine(String peerHost, int peerPort) {
        SSLContext context = settings.context().get();
        SSLEngine engine = host != null ? context.createSSLEngine(host, port) : context.createSSLEngine(peerHost, peerPort);
        return configure(engine);
    }

    @Override
    public SSLEngine configure(SSLEngine engine) {
        engine.setUseClientMode(true);
        if (settings.verifyHostName()) {
            SSLParameters parameters = engine.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            engine.setSSLParameters(parameters);
        }
        return engine;
    }

    @Override
    public SSLEngineConfigurator copy() {
        return new TlsEngines(settings, host, port);
    }
}
