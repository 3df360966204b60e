package dev.grizzlyboot.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The committed test certificates (made once by {@code tls/generate.sh} next to them): a test CA,
 * a server certificate for {@code localhost} and {@code 127.0.0.1}, one for another host, a
 * client certificate, and a wrong CA that signed none of them; as PEM files for memcached and as
 * PKCS#12 stores (password {@value #STORE_PASSWORD}) for Java. The files are copied out of the
 * class path into a temporary directory on first use. For tests only: the private keys are
 * public. Thread-safe.
 */
public final class TestCertificates {

    /** The password of every PKCS#12 store here. */
    public static final String STORE_PASSWORD = "changeit";

    private static final String[] FILES = {"ca.pem", "server.pem", "server.key", "other-host.pem", "other-host.key",
        "client.pem", "client.key", "wrong-ca.pem", "truststore.p12", "wrong-truststore.p12", "client.p12"};

    private static Path directory;

    private TestCertificates() {
    }

    /** The test CA certificate (PEM). */
    public static Path caCertificate() {
        return file("ca.pem");
    }

    /** A CA that signed none of the certificates here (PEM). */
    public static Path wrongCaCertificate() {
        return file("wrong-ca.pem");
    }

    /** memcached's certificate: {@code CN=localhost}, SAN {@code DNS:localhost, IP:127.0.0.1} (PEM). */
    public static Path serverCertificate() {
        return file("server.pem");
    }

    /** The key of {@link #serverCertificate()} (PEM). */
    public static Path serverKey() {
        return file("server.key");
    }

    /** A certificate signed by the test CA for {@code memcached.example} only (PEM). */
    public static Path otherHostCertificate() {
        return file("other-host.pem");
    }

    /** The key of {@link #otherHostCertificate()} (PEM). */
    public static Path otherHostKey() {
        return file("other-host.key");
    }

    /** A client certificate signed by the test CA (PEM). */
    public static Path clientCertificate() {
        return file("client.pem");
    }

    /** The key of {@link #clientCertificate()} (PEM). */
    public static Path clientKey() {
        return file("client.key");
    }

    /** The test CA as a PKCS#12 trust store. */
    public static Path trustStore() {
        return file("truststore.p12");
    }

    /** The wrong CA as a PKCS#12 trust store. */
    public static Path wrongTrustStore() {
        return file("wrong-truststore.p12");
    }

    /** The client certificate and its key as a PKCS#12 key store. */
    public static Path clientKeyStore() {
        return file("client.p12");
    }

    /** A client context that trusts the test CA and has no client certificate. */
    public static SSLContext clientContext() {
        return clientContext(trustStore(), null);
    }

    /** A client context that trusts the test CA and presents the test client certificate. */
    public static SSLContext mutualClientContext() {
        return clientContext(trustStore(), clientKeyStore());
    }

    /**
     * A TLS client context from PKCS#12 stores.
     *
     * @param trustStore the CAs to trust
     * @param keyStore   the client certificate to present, or {@code null} for none
     */
    public static SSLContext clientContext(Path trustStore, Path keyStore) {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(load(trustStore));
            KeyManagerFactory keys = null;
            if (keyStore != null) {
                keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keys.init(load(keyStore), STORE_PASSWORD.toCharArray());
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("could not make a TLS context from " + trustStore + " and " + keyStore, e);
        }
    }

    private static KeyStore load(Path store) throws GeneralSecurityException {
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, STORE_PASSWORD.toCharArray());
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + store, e);
        }
        return keyStore;
    }

    private static synchronized Path file(String name) {
        if (directory == null) {
            directory = copyOut();
        }
        return directory.resolve(name);
    }

    private static Path copyOut() {
        try {
            Path target = Files.createTempDirectory("grizzly-boot-certificates-");
            // Deleted in reverse order of registration: the files first, then the directory.
            target.toFile().deleteOnExit();
            for (String name : FILES) {
                try (InputStream in = TestCertificates.class.getResourceAsStream("tls/" + name)) {
                    if (in == null) {
                        throw new IllegalStateException("test certificate tls/" + name + " is missing from the class path");
                    }
                    Files.copy(in, target.resolve(name));
                }
                target.resolve(name).toFile().deleteOnExit();
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("could not copy the test certificates", e);
        }
    }
}
