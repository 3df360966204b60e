package dev.grizzlyboot.autoconfigure.memcached;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;

import dev.grizzlyboot.memcached.AuthenticationException;
import dev.grizzlyboot.memcached.MemcachedClient;
import dev.grizzlyboot.memcached.MemcachedConnectionException;
import dev.grizzlyboot.memcached.MemcachedException;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedTls;
import dev.grizzlyboot.testsupport.TestCertificates;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code grizzly.memcached.username/password} and {@code grizzly.memcached.ssl.*} against real
 * memcached processes (SASL with mutual TLS, and TLS alone), including a bundle that is fixed on
 * disk while the application runs.
 */
class GrizzlyMemcachedSecurityAutoConfigurationTests {

    @RegisterExtension
    static MemcachedExtension secured = MemcachedExtension.servers(1,
            MemcachedOptions.defaults().withTls(MemcachedTls.mutual()).withSasl("app", "spring-secret"));

    @RegisterExtension
    static MemcachedExtension tls = MemcachedExtension.servers(1, MemcachedOptions.defaults().withTls(MemcachedTls.server()));

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, GrizzlyMemcachedAutoConfiguration.class))
            .withPropertyValues("grizzly.memcached.connect-timeout=5s", "grizzly.memcached.operation-timeout=6s");

    @Test
    void saslLoginOverMutualTlsFromABundle() {
        runner.withPropertyValues("grizzly.memcached.servers=" + secured.first().address(),
                "grizzly.memcached.username=app", "grizzly.memcached.password=spring-secret",
                "grizzly.memcached.ssl.bundle=memcached",
                "spring.ssl.bundle.pem.memcached.truststore.certificate=" + url(TestCertificates.caCertificate()),
                "spring.ssl.bundle.pem.memcached.keystore.certificate=" + url(TestCertificates.clientCertificate()),
                "spring.ssl.bundle.pem.memcached.keystore.private-key=" + url(TestCertificates.clientKey()))
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    MemcachedConnectionDetails details = context.getBean(MemcachedConnectionDetails.class);
                    assertThat(details.getUsername()).isEqualTo("app");
                    assertThat(details.getSslBundle()).isNotNull();
                    MemcachedClient client = context.getBean(MemcachedClient.class);
                    client.blocking().set("spring:secure", "yes", Duration.ZERO);
                    assertThat(client.blocking().get("spring:secure")).isEqualTo("yes");
                });
    }

    @Test
    void wrongPasswordIsAnAuthenticationError() {
        runner.withPropertyValues("grizzly.memcached.servers=" + secured.first().address(),
                "grizzly.memcached.username=app", "grizzly.memcached.password=wrong",
                "grizzly.memcached.ssl.bundle=memcached",
                "spring.ssl.bundle.pem.memcached.truststore.certificate=" + url(TestCertificates.caCertificate()),
                "spring.ssl.bundle.pem.memcached.keystore.certificate=" + url(TestCertificates.clientCertificate()),
                "spring.ssl.bundle.pem.memcached.keystore.private-key=" + url(TestCertificates.clientKey()))
                .run(context -> assertThatThrownBy(() -> context.getBean(MemcachedClient.class).blocking().get("k"))
                        .isInstanceOf(AuthenticationException.class)
                        .hasMessageNotContaining("wrong"));
    }

    @Test
    void aUserWithoutAPasswordFailsTheStart() {
        runner.withPropertyValues("grizzly.memcached.servers=" + secured.first().address(), "grizzly.memcached.username=app")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("grizzly.memcached.password"));
    }

    @Test
    void withoutSslPropertiesThereIsNoTls() {
        runner.withPropertyValues("grizzly.memcached.servers=" + tls.first().address())
                .run(context -> assertThat(context.getBean(MemcachedConnectionDetails.class).getSslBundle()).isNull());
    }

    @Test
    void theBundlesEnabledProtocolsApply() {
        // memcached serves TLS 1.2 and 1.3 only: a bundle limited to TLS 1.1 must not reach it.
        runner.withPropertyValues("grizzly.memcached.servers=" + tls.first().address(),
                "grizzly.memcached.ssl.bundle=memcached",
                "spring.ssl.bundle.pem.memcached.truststore.certificate=" + url(TestCertificates.caCertificate()),
                "spring.ssl.bundle.pem.memcached.options.enabled-protocols=TLSv1.1")
                // The call may meet the failed handshake itself or the back-off after the eager connect's.
                .run(context -> assertThatThrownBy(() -> context.getBean(MemcachedClient.class).blocking().get("protocols"))
                        .isInstanceOf(MemcachedConnectionException.class)
                        .hasMessageContaining("No appropriate protocol"));
    }

    @Test
    void newConnectionsUseAReloadedBundle(@TempDir Path directory) throws IOException {
        Path trusted = directory.resolve("trusted-ca.pem");
        Files.copy(TestCertificates.wrongCaCertificate(), trusted);
        runner.withPropertyValues("grizzly.memcached.servers=" + tls.first().address(),
                "grizzly.memcached.ssl.bundle=memcached",
                "grizzly.memcached.pool.reconnect-backoff=50ms", "grizzly.memcached.pool.max-reconnect-backoff=200ms",
                "grizzly.memcached.cluster.health-check-interval=50ms", "grizzly.memcached.cluster.max-health-check-interval=200ms",
                "spring.ssl.bundle.pem.memcached.truststore.certificate=" + url(trusted),
                "spring.ssl.bundle.pem.memcached.reload-on-update=true",
                "spring.ssl.bundle.watch.file.quiet-period=100ms")
                .run(context -> {
                    MemcachedClient client = context.getBean(MemcachedClient.class);
                    // The call meets the failed handshake itself (TlsHandshakeException) or, when the
                    // connect made at start-up failed first, the back-off that names it.
                    assertThatThrownBy(() -> client.blocking().get("reload"))
                            .isInstanceOf(MemcachedConnectionException.class).hasMessageContaining("PKIX path");
                    // The operator fixes the trust file; nobody restarts the application.
                    Files.copy(TestCertificates.caCertificate(), trusted, StandardCopyOption.REPLACE_EXISTING);
                    await().atMost(Duration.ofSeconds(30)).ignoreExceptionsInstanceOf(MemcachedException.class).until(() -> {
                        client.blocking().set("reload", "trusted now", Duration.ZERO);
                        return "trusted now".equals(client.blocking().get("reload"));
                    });
                });
    }

    private static String url(Path file) {
        return file.toUri().toString();
    }
}
