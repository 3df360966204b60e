package dev.grizzlyboot.testsupport;

import java.nio.file.Path;
import java.util.List;

/**
 * How a memcached process started with {@link MemcachedOptions#withTls} serves TLS (memcached
 * {@code -Z}): its certificate chain and key, and, for mutual TLS, the CA whose client
 * certificates it requires. The factories use the {@link TestCertificates}. Immutable.
 *
 * @param certificateChain the server's certificate chain (PEM)
 * @param privateKey       the server's private key (PEM)
 * @param clientCa         the CA client certificates must chain to, or {@code null} to ask for none
 */
public record MemcachedTls(Path certificateChain, Path privateKey, Path clientCa) {

    /** The test server certificate (localhost, 127.0.0.1, signed by the test CA); no client certificate asked. */
    public static MemcachedTls server() {
        return new MemcachedTls(TestCertificates.serverCertificate(), TestCertificates.serverKey(), null);
    }

    /** Like {@link #server()}, and a client certificate signed by the test CA is required (mutual TLS). */
    public static MemcachedTls mutual() {
        return new MemcachedTls(TestCertificates.serverCertificate(), TestCertificates.serverKey(), TestCertificates.caCertificate());
    }

    /** A certificate signed by the test CA for another host ({@code memcached.example}), to test host-name verification. */
    public static MemcachedTls otherHost() {
        return new MemcachedTls(TestCertificates.otherHostCertificate(), TestCertificates.otherHostKey(), null);
    }

    /** The memcached arguments that turn TLS on. */
    List<String> arguments() {
        StringBuilder settings = new StringBuilder("ssl_chain_cert=" + certificateChain + ",ssl_key=" + privateKey);
        if (clientCa != null) {
            // 2 = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT: a client without a certificate is refused.
            settings.append(",ssl_verify_mode=2,ssl_ca_cert=").append(clientCa);
        }
        return List.of("-Z", "-o", settings.toString());
    }
}
