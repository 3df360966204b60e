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
import org.springframework.boot.ssl.SslBundles;
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
        SslOptions options = bundle.getOptions();
        if (options == null || !options.isSpecified()) {
            return bundle.createSslContext();
        }
        return new FollowingSslContext(new BundleSpi(bundle));
    }

    /**
     * Returns a context of the named bundle, with its options, that follows the bundle when it is
     * reloaded ({@code reload-on-update}): engines made after a reload use the new key and trust
     * material, as Boot's embedded web servers do, while connections already open keep theirs.
     *
     * @param bundles the application's bundles
     * @param name    the bundle's name
     * @return a context that always makes engines of the bundle's latest state
     */
    public static SSLContext create(SslBundles bundles, String name) {
        BundleSpi spi = new BundleSpi(bundles.getBundle(name));
        bundles.addBundleUpdateHandler(name, spi::update);
        return new FollowingSslContext(spi);
    }

    /** A context that hands out only engines of its bundle's current state, limited to the options. */
    private static final class FollowingSslContext extends SSLContext {
        FollowingSslContext(BundleSpi spi) {
            super(spi, spi.context.getProvider(), spi.context.getProtocol());
        }
    }

    private static final class BundleSpi extends SSLContextSpi {
        // Replaced together on a reload; an engine made meanwhile may pair the old context with the
        // new options, which a reload leaves as they were (they are the bundle's properties).
        private volatile SSLContext context;
        private volatile SslOptions options;

        BundleSpi(SslBundle bundle) {
            update(bundle);
        }

        void update(SslBundle bundle) {
            this.context = bundle.createSslContext();
            this.options = bundle.getOptions() != null ? bundle.getOptions() : SslOptions.NONE;
        }

        @Override
        protected void engineInit(KeyManager[] keyManagers, TrustManager[] trustManagers, SecureRandom random)
                throws KeyManagementException {
            throw new KeyManagementException("the SSL context of a bundle is initialized by the bundle");
        }

        // Grizzly's transports make engines only; a socket would get neither the options nor a reload.
        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            throw new UnsupportedOperationException("SSL contexts of grizzly-boot bundles make SSL engines only");
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            throw new UnsupportedOperationException("SSL contexts of grizzly-boot bundles make SSL engines only");
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
            SslOptions options = this.options;
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
            SslOptions options = this.options;
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
