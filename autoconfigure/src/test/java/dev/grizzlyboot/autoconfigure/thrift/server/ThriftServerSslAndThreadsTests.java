package dev.grizzlyboot.autoconfigure.thrift.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

import dev.grizzlyboot.autoconfigure.thrift.CalculatorHandlerConfiguration;
import dev.grizzlyboot.testsupport.TestCertificates;
import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftTransportFailureException;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.shared.SharedService;
import dev.grizzlyboot.thrift.tutorial.shared.SharedStruct;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The server over TLS from Spring Boot SSL bundles (test keys in thrift-tls/), and on virtual threads. */
class ThriftServerSslAndThreadsTests {
    private static final String TLS = "classpath:thrift-tls/";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ThriftServerAutoConfiguration.class, SslAutoConfiguration.class))
            .withUserConfiguration(CalculatorHandlerConfiguration.class)
            .withPropertyValues("grizzly.thrift.server.host=127.0.0.1", "grizzly.thrift.server.port=0",
                    "spring.ssl.bundle.jks.thrift-server.keystore.location=" + TLS + "server.p12",
                    "spring.ssl.bundle.jks.thrift-server.keystore.password=changeit",
                    "spring.ssl.bundle.jks.thrift-server.truststore.location=" + TLS + "server-truststore.p12",
                    "spring.ssl.bundle.jks.thrift-server.truststore.password=changeit",
                    "spring.ssl.bundle.jks.thrift-client.keystore.location=" + TLS + "client.p12",
                    "spring.ssl.bundle.jks.thrift-client.keystore.password=changeit",
                    "spring.ssl.bundle.jks.thrift-client.truststore.location=" + TLS + "client-truststore.p12",
                    "spring.ssl.bundle.jks.thrift-client.truststore.password=changeit",
                    "spring.ssl.bundle.jks.thrift-anonymous.truststore.location=" + TLS + "client-truststore.p12",
                    "spring.ssl.bundle.jks.thrift-anonymous.truststore.password=changeit");

    @Test
    void servesTlsFromTheBundle() {
        runner.withPropertyValues("grizzly.thrift.server.ssl.bundle=thrift-server").run(context -> {
            try (ThriftClient client = tlsClient(context, "thrift-anonymous")) {
                assertThat(client.proxy(Calculator.Iface.class).add(20, 22)).isEqualTo(42);
            }
            try (ThriftClient plain = ThriftClient.builder()
                    .server("127.0.0.1", ThriftServerAutoConfigurationTests.port(context))
                    .retries(0).readTimeout(Duration.ofSeconds(2)).build()) {
                assertThatThrownBy(() -> plain.proxy(Calculator.Iface.class).add(1, 1))
                        .isInstanceOf(ThriftTransportFailureException.class);
            }
        });
    }

    @Test
    void servesOnlyTheProtocolsAndCiphersOfTheBundlesOptions() throws Exception {
        runner.withPropertyValues("grizzly.thrift.server.ssl.bundle=thrift-server",
                "spring.ssl.bundle.jks.thrift-server.options.enabled-protocols=TLSv1.2",
                "spring.ssl.bundle.jks.thrift-server.options.ciphers=TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256").run(context -> {
            SSLContext anonymous = context.getBean(SslBundles.class).getBundle("thrift-anonymous").createSslContext();
            // A client offering TLS 1.3 and 1.2 and every default cipher: the server must pick within its options.
            try (SSLSocket socket = (SSLSocket) anonymous.getSocketFactory()
                    .createSocket("127.0.0.1", ThriftServerAutoConfigurationTests.port(context))) {
                socket.setSoTimeout(5000);
                socket.startHandshake();
                assertThat(socket.getSession().getProtocol()).isEqualTo("TLSv1.2");
                assertThat(socket.getSession().getCipherSuite()).isEqualTo("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
            }
        });
    }

    @Test
    void newConnectionsUseAReloadedBundle(@TempDir Path directory) throws IOException {
        Path certificate = directory.resolve("server.pem");
        Path key = directory.resolve("server.key");
        // At first the server presents a certificate of another host, which the client refuses.
        Files.copy(TestCertificates.otherHostCertificate(), certificate);
        Files.copy(TestCertificates.otherHostKey(), key);
        runner.withPropertyValues("grizzly.thrift.server.ssl.bundle=thrift-reload",
                "spring.ssl.bundle.pem.thrift-reload.keystore.certificate=" + certificate.toUri(),
                "spring.ssl.bundle.pem.thrift-reload.keystore.private-key=" + key.toUri(),
                "spring.ssl.bundle.pem.thrift-reload.reload-on-update=true",
                "spring.ssl.bundle.watch.file.quiet-period=100ms").run(context -> {
            int port = ThriftServerAutoConfigurationTests.port(context);
            try (ThriftClient client = verifyingClient(port)) {
                assertThatThrownBy(() -> client.proxy(Calculator.Iface.class).add(1, 1))
                        .isInstanceOf(ThriftTransportFailureException.class);
            }
            // The operator installs the right certificate; nobody restarts the application.
            Files.copy(TestCertificates.serverCertificate(), certificate, StandardCopyOption.REPLACE_EXISTING);
            Files.copy(TestCertificates.serverKey(), key, StandardCopyOption.REPLACE_EXISTING);
            await().atMost(Duration.ofSeconds(30)).ignoreExceptionsInstanceOf(ThriftTransportFailureException.class)
                    .untilAsserted(() -> {
                        try (ThriftClient client = verifyingClient(port)) {
                            assertThat(client.proxy(Calculator.Iface.class).add(20, 22)).isEqualTo(42);
                        }
                    });
        });
    }

    @Test
    void clientAuthNeedAdmitsOnlyClientsWithATrustedCertificate() {
        runner.withPropertyValues("grizzly.thrift.server.ssl.bundle=thrift-server",
                "grizzly.thrift.server.ssl.client-auth=need").run(context -> {
            try (ThriftClient client = tlsClient(context, "thrift-client")) {
                assertThat(client.proxy(Calculator.Iface.class).add(20, 22)).isEqualTo(42);
            }
            try (ThriftClient anonymous = tlsClient(context, "thrift-anonymous")) {
                assertThatThrownBy(() -> anonymous.proxy(Calculator.Iface.class).add(1, 1))
                        .isInstanceOf(ThriftTransportFailureException.class);
            }
        });
    }

    @Test
    @EnabledForJreRange(min = JRE.JAVA_21)
    void handlersRunOnVirtualThreadsWhenEnabled() {
        threadsRunner().withPropertyValues("spring.threads.virtual.enabled=true").run(context -> {
            try (ThriftClient client = ThriftClient.builder()
                    .server("127.0.0.1", ThriftServerAutoConfigurationTests.port(context)).build()) {
                assertThat(client.proxy(SharedService.Iface.class).getStruct(3).getKey()).isEqualTo(3);
            }
            Thread handlerThread = context.getBean(ThreadRecordingHandler.class).lastThread.get();
            assertThat(Thread.class.getMethod("isVirtual").invoke(handlerThread)).isEqualTo(true);
        });
    }

    @Test
    void handlersRunOnTheWorkerPoolByDefault() {
        threadsRunner().run(context -> {
            try (ThriftClient client = ThriftClient.builder()
                    .server("127.0.0.1", ThriftServerAutoConfigurationTests.port(context)).build()) {
                assertThat(client.proxy(SharedService.Iface.class).getStruct(3).getKey()).isEqualTo(3);
            }
            assertThat(context.getBean(ThreadRecordingHandler.class).lastThread.get().getName())
                    .startsWith("grizzlyboot-thrift-worker");
        });
    }

    private static ApplicationContextRunner threadsRunner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ThriftServerAutoConfiguration.class))
                .withUserConfiguration(ThreadRecordingConfiguration.class)
                .withPropertyValues("grizzly.thrift.server.host=127.0.0.1", "grizzly.thrift.server.port=0");
    }

    /** A client that trusts the test CA and checks that the certificate names 127.0.0.1. */
    private static ThriftClient verifyingClient(int port) {
        return ThriftClient.builder().server("127.0.0.1", port).tls(TestCertificates.clientContext(), true)
                .retries(0).connectTimeout(Duration.ofSeconds(5)).build();
    }

    private static ThriftClient tlsClient(AssertableApplicationContext context, String bundle) {
        return ThriftClient.builder().server("127.0.0.1", ThriftServerAutoConfigurationTests.port(context))
                .tls(context.getBean(SslBundles.class).getBundle(bundle).createSslContext(), true)
                .retries(0).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** Records the thread each call runs on. */
    static final class ThreadRecordingHandler implements SharedService.Iface {
        final AtomicReference<Thread> lastThread = new AtomicReference<>();

        @Override
        public SharedStruct getStruct(int key) {
            lastThread.set(Thread.currentThread());
            return new SharedStruct(key, "value " + key);
        }
    }


    @Configuration(proxyBeanMethods = false)
    static class ThreadRecordingConfiguration {
        @Bean
        @ThriftService
        ThreadRecordingHandler threadRecordingHandler() {
            return new ThreadRecordingHandler();
        }
    }
}
