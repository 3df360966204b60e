package dev.grizzlyboot.autoconfigure.internal;

import java.security.KeyManagementException;
import java.security.SecureRandom;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;

import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslOptions;

/**
 * The {@link SSLContext} of a Spring Boot {@link SslBundle} with the bundle's
 * {@link SslBundle#getOptions() options} (enabled protocols and ciphers) applied, as Boot's own
 * embedded servers and Redis client apply them. {@link SslBundle#createSslContext()} alone ignores
 * the options, so a bundle limited to, say, TLS 1.2 would otherwise still negotiate TLS 1.3.
 * Internal: not public API.
 */
public final class BundleSslContexts {

    private BundleSslContexts() {
    }

    /**
     * Returns a new context of the bundle whose engines, and whose default parameters (which
     * Grizzly sets on every engine it configures), have the bundle's protocols and ciphers.
     *
     * @param bundle the bundle
     * @return its context, with the options when the bundle specifies any
     */
    public static SSLContext create(SslBundle bundle) {
        SSLContext context = bundle.createSslContext();
        SslOptions options = bundle.getOptions();
        if (options == null || !options.isSpecified()) {
            return context;
        }
        return new OptionsSslContext(context, options);
    }

    /** A context that hands out only engines limited to the options. */
    private static final class OptionsSslContext extends SSLContext {
        OptionsSslContext(SSLContext context, SslOptions options) {
            super(new OptionsSpi(context, options), context.getProvider(), context.getProtocol());
        }
    }

    private static final class OptionsSpi extends SSLContextSpi {
        private final SSLContext context;
        private final SslOptions options;

        OptionsSpi(SSLContext context, SslOptions options) {
            this.context = context;
            this.options = options;
        }

        @Override
        protected void engineInit(KeyManager[] keyManagers, TrustManager[] trustManagers, SecureRandom random)
                throws KeyManagementException {
            throw new KeyManagementException("the SSL context of a bundle is initialized by the bundle");
        }

        // Grizzly's transports make engines only; a socket would not get the options, so none is made.
        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            throw new UnsupportedOperationException("SSL bundle contexts with options make SSL engines only");
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            throw new UnsupportedOperationException("SSL bundle contexts with options make SSL engines only");
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return limit(context.createSSLEngine());
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return limit(context.createSSLEngine(host, port));
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return context.getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return context.getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            SSLParameters parameters = context.getDefaultSSLParameters();
            if (options.getEnabledProtocols() != null) {
                parameters.setProtocols(options.getEnabledProtocols());
            }
            if (options.getCiphers() != null) {
                parameters.setCipherSuites(options.getCiphers());
            }
            return parameters;
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return context.getSupportedSSLParameters();
        }

        private SSLEngine limit(SSLEngine engine) {
            if (options.getEnabledProtocols() != null) {
                engine.setEnabledProtocols(options.getEnabledProtocols());
            }
            if (options.getCiphers() != null) {
                engine.setEnabledCipherSuites(options.getCiphers());
            }
            return engine;
        }
    }
}
