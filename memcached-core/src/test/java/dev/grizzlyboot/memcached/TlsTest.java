package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.MemcachedOptions;
import dev.grizzlyboot.testsupport.MemcachedProcess;
import dev.grizzlyboot.testsupport.MemcachedTls;
import dev.grizzlyboot.testsupport.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * TLS against real memcached processes started with {@code -Z} and the committed test
 * certificates: the data path works over TLS (the servers speak nothing else); an untrusted
 * certificate, a certificate for another host, and a missing client certificate are typed
 * errors, never a plaintext fallback; host-name verification is on unless switched off; mutual
 * TLS and TLS with SASL work.
 */
class TlsTest {

    private static final ExecutorService executor = Executors.newFixedThreadPool(4);

    @RegisterExtension
    static MemcachedExtension tls = MemcachedExtension.servers(1, MemcachedOptions.defaults().withTls(MemcachedTls.server()));

    @RegisterExtension
    static MemcachedExtension otherHost = MemcachedExtension.servers(1,
            MemcachedOptions.defaults().withTls(MemcachedTls.otherHost()));

    @RegisterExtension
    static MemcachedExtension mutual = MemcachedExtension.servers(1,
            MemcachedOptions.defaults().withTls(MemcachedTls.mutual()).withSasl("app", "tls-and-sasl"));

    @RegisterExtension
    static MemcachedExtension plaintext = MemcachedExtension.server();

    @RegisterExtension
    static MemcachedExtension mutualNoSasl = MemcachedExtension.servers(1,
            MemcachedOptions.defaults().withTls(MemcachedTls.mutual()));

    @Test
    void storesAndReadsOverTls() {
        try (MemcachedClient client = client(tls.first().address())
                .tls(TestCertificates.clientContext()).build()) {
            client.blocking().set("tls:key", "over tls", Duration.ZERO);
            assertThat(client.blocking().get("tls:key")).isEqualTo("over tls");
        }
        // The oracle reads it back over its own TLS connection.
        assertThat(tls.first().textCommand("get tls:key")).contains("over tls");
    }

    @Test
    void batchesLargerThanOneTlsRecordAreAnswered() {
        // memcached 1.6.18 reads one TLS record at a time: a request batch cut across records used
        // to sit unanswered inside the server's OpenSSL buffer until the client sent more.
        try (MemcachedClient client = client(tls.first().address()).tls(TestCertificates.clientContext())
                .operationTimeout(Duration.ofSeconds(3)).build()) {
            Map<String, Object> values = new LinkedHashMap<>();
            for (int i = 0; i < 500; i++) {
                values.put("batch:" + i, new byte[128 + i % 7]);
            }
            values.put("batch:large", new byte[40_000]);
            values.put("batch:larger", new byte[100_000]);
            assertThat(client.blocking().setMulti(values, Duration.ZERO).errors()).isEmpty();
            assertThat(client.blocking().getMulti(List.copyOf(values.keySet())).values()).hasSize(values.size());
            client.blocking().set("single:large", new byte[300_000], Duration.ZERO);
            assertThat((byte[]) client.blocking().get("single:large")).hasSize(300_000);
        }
    }

    @Test
    void textBulkReadsLargerThanOneTlsRecordAreAnswered() {
        // A text get of this many keys is over 16 KiB: it used to be cut into TLS records as if it
        // were binary requests, reading a "body length" out of key bytes, and with these keys (whose
        // UTF-8 bytes have the high bit set) the cut failed every key with an IndexOutOfBoundsException.
        try (MemcachedClient client = client(tls.first().address()).tls(TestCertificates.clientContext())
                .textBulkReads(true).connectionsPerServer(1, 1).build()) {
            Map<String, Object> values = new LinkedHashMap<>();
            for (int i = 0; i < 300; i++) {
                values.put("\u00e9".repeat(100) + i, "v" + i);
            }
            assertThat(client.blocking().setMulti(values, Duration.ZERO).errors()).isEmpty();
            BulkResult<Object> read = client.blocking().getMulti(List.copyOf(values.keySet()));
            assertThat(read.errors()).isEmpty();
            assertThat(read.values()).isEqualTo(values);
            // Reads issued together on the one connection share a write, which is cut between their lines.
            List<String> keys = List.copyOf(values.keySet());
            List<CompletableFuture<BulkResult<Object>>> reads = new ArrayList<>();
            for (int i = 0; i < 25; i++) {
                reads.add(client.getMulti(keys.subList(i * 10, i * 10 + 60)));
            }
            for (int i = 0; i < reads.size(); i++) {
                BulkResult<Object> part = reads.get(i).join();
                assertThat(part.errors()).isEmpty();
                assertThat(part.values()).hasSize(60).containsEntry(keys.get(i * 10), "v" + i * 10);
            }
        }
    }

    @Test
    void concurrentCallersWhileConnectionsOpenAreAllAnswered() throws Exception {
        for (int round = 0; round < 10; round++) {
            try (MemcachedClient client = client(tls.first().address()).tls(TestCertificates.clientContext())
                    .connectionsPerServer(1, 4).pipelineDepth(2).operationTimeout(Duration.ofSeconds(3)).build()) {
                List<CompletableFuture<Void>> callers = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    int thread = t;
                    callers.add(CompletableFuture.runAsync(() -> {
                        for (int i = 0; i < 40; i++) {
                            client.blocking().set("race:" + thread + ":" + i, "v", Duration.ZERO);
                        }
                    }, executor));
                }
                CompletableFuture.allOf(callers.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void untrustedCertificateIsATypedErrorAndNothingIsSentInPlaintext() {
        MemcachedProcess server = tls.first();
        Map<String, String> before = server.stats();
        try (MemcachedClient client = client(server.address())
                .tls(TestCertificates.clientContext(TestCertificates.wrongTrustStore(), null)).failover(false).build()) {
            assertThatThrownBy(() -> client.blocking().set("wrong-ca", "x", Duration.ZERO))
                    .isInstanceOf(TlsHandshakeException.class)
                    .hasMessageContaining(server.address());
            assertThatThrownBy(() -> client.blocking().get("wrong-ca")).isInstanceOf(MemcachedConnectionException.class);
        }
        Map<String, String> after = server.stats();
        // Only the oracle's own "stats" commands reached memcached: no set or get from the client.
        assertThat(after.get("cmd_set")).isEqualTo(before.get("cmd_set"));
        assertThat(after.get("cmd_get")).isEqualTo(before.get("cmd_get"));
    }

    @Test
    void tlsClientNeverFallsBackToPlaintext() {
        MemcachedProcess server = plaintext.first();
        Map<String, String> before = server.stats();
        try (MemcachedClient client = client(server.address()).tls(TestCertificates.clientContext())
                .connectTimeout(Duration.ofMillis(300)).operationTimeout(Duration.ofSeconds(1)).failover(false).build()) {
            assertThatThrownBy(() -> client.blocking().set("plain", "x", Duration.ZERO))
                    .isInstanceOf(MemcachedConnectionException.class);
        }
        assertThat(server.stats().get("cmd_set")).isEqualTo(before.get("cmd_set"));
    }

    @Test
    void certificateForAnotherHostIsRefusedUnlessVerificationIsOff() {
        String address = otherHost.first().address();
        try (MemcachedClient client = client(address)
                .tls(TestCertificates.clientContext()).failover(false).build()) {
            assertThatThrownBy(() -> client.blocking().get("k"))
                    .isInstanceOf(TlsHandshakeException.class)
                    .hasMessageContaining("127.0.0.1");
        }
        try (MemcachedClient client = client(address)
                .tls(TestCertificates::clientContext, false).build()) {
            client.blocking().set("unverified", "ok", Duration.ZERO);
            assertThat(client.blocking().get("unverified")).isEqualTo("ok");
        }
    }

    @Test
    void mutualTlsWithSasl() {
        String address = mutual.first().address();
        try (MemcachedClient client = client(address)
                .tls(TestCertificates.mutualClientContext()).authentication("app", "tls-and-sasl").build()) {
            client.blocking().set("mutual", "both", Duration.ZERO);
            assertThat(client.blocking().get("mutual")).isEqualTo("both");
        }
    }

    @Test
    void mutualTlsWithoutAClientCertificateIsATypedError() {
        try (MemcachedClient client = client(mutual.first().address())
                .tls(TestCertificates.clientContext()).authentication("app", "tls-and-sasl").failover(false).build()) {
            assertThatThrownBy(() -> client.blocking().get("k"))
                    .isInstanceOf(TlsHandshakeException.class)
                    .hasMessageContaining(mutual.first().address())
                    .hasMessageContaining("certificate_required");
        }
    }

    @Test
    void mutualTlsRefusalWithoutSaslIsATypedErrorToo() {
        // Without a login, the refusal (TLS 1.3: after the client's side of the handshake) meets the first request.
        try (MemcachedClient client = client(mutualNoSasl.first().address())
                .tls(TestCertificates.clientContext()).failover(false).build()) {
            assertThatThrownBy(() -> client.blocking().get("k")).isInstanceOf(TlsHandshakeException.class);
        }
        try (MemcachedClient client = client(mutualNoSasl.first().address())
                .tls(TestCertificates.mutualClientContext()).build()) {
            client.blocking().set("mutual-only", "tls", Duration.ZERO);
            assertThat(client.blocking().get("mutual-only")).isEqualTo("tls");
        }
    }

    @AfterAll
    static void stopCallers() {
        executor.shutdownNow();
    }

    /**
     * A client with room for slow handshakes: the first TLS handshake in a JVM (class loading, key
     * generation) can take over a second on a loaded machine.
     */
    private static MemcachedClientBuilder client(String address) {
        return MemcachedClient.builder().servers(address).connectTimeout(Duration.ofSeconds(5)).operationTimeout(Duration.ofSeconds(6));
    }
}
