package dev.grizzlyboot.autoconfigure.memcached;

import java.util.function.Supplier;

import javax.net.ssl.SSLContext;

import dev.grizzlyboot.autoconfigure.internal.BundleSslContexts;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ssl.SslBundle;

/**
 * The TLS context of an SSL bundle, as the client asks for it on every new connection. Registered
 * as the bundle's update handler when the bundle can reload ({@code reload-on-update}), so that the
 * connections opened after a certificate change use the new one while those already open keep
 * theirs, as Boot's own embedded servers treat a reloaded bundle. Thread-safe.
 */
final class BundleSslContext implements Supplier<SSLContext> {

    private static final Logger log = LoggerFactory.getLogger(BundleSslContext.class);

    private volatile SSLContext context;

    BundleSslContext(SslBundle bundle) {
        this.context = BundleSslContexts.create(bundle);
    }

    /** Takes the reloaded bundle; the next connection uses it. */
    void update(SslBundle bundle) {
        context = BundleSslContexts.create(bundle);
        log.info("SSL bundle for memcached reloaded: new connections use the new certificates");
    }

    @Override
    public SSLContext get() {
        return context;
    }
}
