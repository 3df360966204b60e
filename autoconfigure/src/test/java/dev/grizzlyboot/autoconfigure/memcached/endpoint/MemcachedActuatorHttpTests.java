package dev.grizzlyboot.autoconfigure.memcached.endpoint;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.grizzlyboot.memcached.zookeeper.ZooKeeperServerListSync;
import dev.grizzlyboot.testsupport.MemcachedExtension;
import dev.grizzlyboot.testsupport.ZooKeeperExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The actuator over HTTP on a random port, two application instances on one real ZooKeeper and
 * three real memcached processes: health JSON, the endpoint's read and per-server stats, writes
 * refused by default, allowed when granted, and 409 on a stale version.
 */
class MemcachedActuatorHttpTests {

    @RegisterExtension
    static ZooKeeperExtension zookeeper = new ZooKeeperExtension();

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.servers(3);

    private static final JsonMapper json = JsonMapper.builder().build();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<ConfigurableApplicationContext> apps = new ArrayList<>();

    @AfterEach
    void stopApps() {
        apps.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void healthShowsBothContributorsWithDetails() throws Exception {
        String base = start("health", "health-a");
        HttpResponse<String> response = get(base + "/actuator/health");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode health = json.readTree(response.body());
        assertThat(health.path("status").asString()).isEqualTo("UP");
        JsonNode memcachedHealth = health.path("components").path("memcached");
        assertThat(memcachedHealth.path("status").asString()).isEqualTo("UP");
        assertThat(memcachedHealth.path("details").path("answered").asString()).isEqualTo("2/2");
        assertThat(memcachedHealth.path("details").path("servers").path(memcached.get(0).address()).path("version").asString())
                .startsWith("1.");
        JsonNode zookeeperHealth = health.path("components").path("memcachedZookeeper");
        assertThat(zookeeperHealth.path("status").asString()).isEqualTo("UP");
        assertThat(zookeeperHealth.path("details").path("registered").asBoolean()).isTrue();
        assertThat(zookeeperHealth.path("details").path("committedVersion").asLong()).isEqualTo(1);
    }

    @Test
    void readsServersStatesVersionsAndTheCommittedListAndEachServersStats() throws Exception {
        String base = start("read", "read-a");
        HttpResponse<String> response = get(base + "/actuator/memcached");
        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode body = json.readTree(response.body());
        assertThat(body.path("servers")).hasSize(2);
        JsonNode first = body.path("servers").get(0);
        assertThat(first.path("server").asString()).isEqualTo(memcached.get(0).address());
        assertThat(first.path("state").asString()).isEqualTo("ACTIVE");
        assertThat(first.path("weight").asInt()).isEqualTo(1);
        assertThat(first.path("openConnections").asInt()).isPositive();
        assertThat(first.path("version").asString()).startsWith("1.");
        assertThat(body.path("nearCache").path("size").asLong()).isZero();
        JsonNode list = body.path("serverList");
        assertThat(list.path("memberId").asString()).isEqualTo("read-a");
        assertThat(list.path("version").asLong()).isEqualTo(1);
        assertThat(list.path("phase").asString()).isEqualTo("IN_SYNC");
        assertThat(list.path("zookeeper").path("committedVersion").asLong()).isEqualTo(1);
        assertThat(list.path("zookeeper").path("members")).hasSize(1);
        assertThat(list.path("zookeeper").path("registered").asBoolean()).isTrue();
        JsonNode seedCommittedAt = list.path("zookeeper").path("committedAt");
        assertThat(seedCommittedAt.isNull() || seedCommittedAt.isMissingNode()).as("a seed list has no T: %s", seedCommittedAt)
                .isTrue();

        HttpResponse<String> stats = get(base + "/actuator/memcached/" + memcached.get(1).address());
        assertThat(stats.statusCode()).isEqualTo(200);
        assertThat(json.readTree(stats.body()).path("pid").asString()).isEqualTo(memcached.get(1).stats().get("pid"));
        assertThat(get(base + "/actuator/memcached/127.0.0.1:1").statusCode()).isEqualTo(404);
    }

    @Test
    void writesAreRefusedByDefault() throws Exception {
        String base = start("refused", "refused-a");
        HttpResponse<String> response = post(base + "/actuator/memcached", proposal(memcached.addresses(), 1));
        assertThat(response.statusCode()).isBetween(400, 499).isNotEqualTo(409);
        ZooKeeperServerListSync sync = apps.get(0).getBean(ZooKeeperServerListSync.class);
        assertThat(sync.readCluster().barrier()).isNull();
        assertThat(sync.state().proposedVersion()).isEqualTo(1);
    }

    @Test
    void grantedWritesProposeToEveryInstanceAndAStaleVersionIs409() throws Exception {
        String readOnly = start("granted", "granted-a");
        String writable = start("granted", "granted-b", "management.endpoint.memcached.access=unrestricted");

        HttpResponse<String> accepted = post(writable + "/actuator/memcached", proposal(memcached.addresses(), 1));
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
        assertThat(json.readTree(accepted.body()).path("proposedVersion").asLong()).isEqualTo(2);

        // Members switch at T; the change is recorded as committed just after, and until then a
        // proposal based on version 1 is refused as "still in progress" with version 1 as current.
        await().atMost(Duration.ofSeconds(30)).until(() -> version(readOnly) == 2 && version(writable) == 2
                && committedVersion(writable) == 2);
        JsonNode a = json.readTree(get(readOnly + "/actuator/memcached").body());
        JsonNode b = json.readTree(get(writable + "/actuator/memcached").body());
        assertThat(a.path("servers")).hasSize(3);
        assertThat(a.path("serverList").path("commitAt").asString()).isNotEmpty()
                .isEqualTo(b.path("serverList").path("commitAt").asString());
        // ZooKeeper's committed record carries the same T, read by either instance.
        assertThat(a.path("serverList").path("zookeeper").path("committedAt").asString())
                .isEqualTo(b.path("serverList").path("zookeeper").path("committedAt").asString())
                .isEqualTo(a.path("serverList").path("commitAt").asString());

        HttpResponse<String> stale = post(writable + "/actuator/memcached", proposal(memcached.addresses().subList(0, 1), 1));
        assertThat(stale.statusCode()).isEqualTo(409);
        JsonNode conflict = json.readTree(stale.body());
        assertThat(conflict.path("currentVersion").asLong()).isEqualTo(2);
        assertThat(conflict.path("expectedVersion").asLong()).isEqualTo(1);

        assertThat(post(writable + "/actuator/memcached", proposal(List.of("not a server:x"), 2)).statusCode()).isEqualTo(400);
        assertThat(post(readOnly + "/actuator/memcached", proposal(memcached.addresses().subList(0, 1), 2)).statusCode())
                .isBetween(400, 499).isNotEqualTo(409);
    }

    @Test
    void writeAccessFollowsBootsAccessProperties() throws Exception {
        // A stale version reaches the operation (409) without proposing anything.
        String byDefault = start("access", "access-a", "management.endpoints.access.default=unrestricted");
        assertThat(post(byDefault + "/actuator/memcached", proposal(memcached.addresses(), 7)).statusCode()).isEqualTo(409);
        String capped = start("access", "access-b", "management.endpoint.memcached.access=unrestricted",
                "management.endpoints.access.max-permitted=read-only");
        assertThat(post(capped + "/actuator/memcached", proposal(memcached.addresses(), 1)).statusCode())
                .isBetween(400, 499).isNotEqualTo(409);
        assertThat(get(capped + "/actuator/memcached").statusCode()).isEqualTo(200);
        String none = start("access", "access-c", "management.endpoint.memcached.access=none");
        assertThat(get(none + "/actuator/memcached").statusCode()).isEqualTo(404);
        assertThat(post(none + "/actuator/memcached", proposal(memcached.addresses(), 1)).statusCode())
                .isBetween(400, 499).isNotEqualTo(409);
        ZooKeeperServerListSync sync = apps.get(0).getBean(ZooKeeperServerListSync.class);
        assertThat(sync.readCluster().barrier()).isNull();
        assertThat(sync.readCluster().committedVersion()).isEqualTo(1);
    }

    @Test
    void malformedProposalsAreRejectedWithoutChangingTheList() throws Exception {
        String base = start("malformed", "malformed-a", "management.endpoint.memcached.access=unrestricted");
        String server = memcached.get(2).address();
        for (String body : List.of(proposal(List.of(), 1), proposal(List.of(" , "), 1), proposal(List.of("a:b:c"), 1),
                proposal(List.of("127.0.0.1:99999"), 1), proposal(List.of(server, server), 1), "{\"servers\": \"" + server + "\"}",
                "{\"servers\": \"" + server + "\", \"expectedVersion\": \"one\"}", "{\"expectedVersion\": 1}",
                "{\"servers\": [\"" + server + "\"], \"expectedVersion\": 1}", "{not json", "")) {
            HttpResponse<String> response = post(base + "/actuator/memcached", body);
            assertThat(response.statusCode()).as(body).isEqualTo(400);
            assertThat(response.body()).as(body).doesNotContain("Exception");
        }
        assertThat(json.readTree(post(base + "/actuator/memcached", proposal(List.of(server), 7)).body())
                .path("currentVersion").asLong()).isEqualTo(1);
        ZooKeeperServerListSync sync = apps.get(0).getBean(ZooKeeperServerListSync.class);
        assertThat(sync.readCluster().barrier()).isNull();
        assertThat(sync.readCluster().committedVersion()).isEqualTo(1);
        assertThat(sync.state().proposedVersion()).isEqualTo(1);
        assertThat(get(base + "/actuator/memcached/127.0.0.1:99999").statusCode()).isEqualTo(400);
        assertThat(get(base + "/actuator/memcached/" + server).statusCode()).isEqualTo(404);
    }

    @Test
    void whileZooKeeperIsDownReadsAnswerAtOnceAndAProposalIs503() throws Exception {
        // A connection timeout far beyond the requests' 5 s: a call that waits for ZooKeeper fails the test.
        String base = start("outage", "outage-a", "management.endpoint.memcached.access=unrestricted",
                "grizzly.memcached.zookeeper.connection-timeout=30s");
        ZooKeeperServerListSync sync = apps.get(0).getBean(ZooKeeperServerListSync.class);
        zookeeper.stop();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> !sync.state().connected());
            HttpResponse<String> read = get(base + "/actuator/memcached", Duration.ofSeconds(5));
            assertThat(read.statusCode()).isEqualTo(200);
            JsonNode list = json.readTree(read.body()).path("serverList");
            assertThat(list.path("connected").asBoolean()).isFalse();
            assertThat(list.path("error").asString()).contains("not connected to ZooKeeper");
            assertThat(list.path("servers")).hasSize(2);

            HttpResponse<String> proposal = post(base + "/actuator/memcached", proposal(memcached.addresses(), 1),
                    Duration.ofSeconds(5));
            assertThat(proposal.statusCode()).as(proposal.body()).isEqualTo(503);
            assertThat(json.readTree(proposal.body()).path("error").asString()).contains("nothing was proposed");
        } finally {
            zookeeper.restart();
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> sync.state().connected());
        assertThat(sync.readCluster().barrier()).isNull();
        assertThat(sync.readCluster().committedVersion()).isEqualTo(1);
    }

    private String start(String cluster, String memberId, String... extra) {
        List<String> properties = new ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1",
                "grizzly.memcached.servers=" + memcached.get(0).address() + "," + memcached.get(1).address(),
                "grizzly.memcached.zookeeper.connect-string=" + zookeeper.connectString(),
                "grizzly.memcached.zookeeper.cluster=" + cluster, "grizzly.memcached.zookeeper.member-id=" + memberId,
                "grizzly.memcached.zookeeper.commit-delay=500ms", "grizzly.memcached.zookeeper.session-timeout=4s",
                "grizzly.memcached.zookeeper.prepare-timeout=20s",
                "management.endpoints.web.exposure.include=health,memcached",
                "management.endpoint.health.show-details=always"));
        properties.addAll(List.of(extra));
        ConfigurableApplicationContext app = new SpringApplicationBuilder(App.class)
                .properties(properties.toArray(String[]::new)).run();
        apps.add(app);
        return "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
    }

    private long version(String base) throws IOException, InterruptedException {
        return json.readTree(get(base + "/actuator/memcached").body()).path("serverList").path("version").asLong();
    }

    private long committedVersion(String base) throws IOException, InterruptedException {
        return json.readTree(get(base + "/actuator/memcached").body()).path("serverList").path("zookeeper")
                .path("committedVersion").asLong();
    }

    private static String proposal(List<String> servers, long expectedVersion) {
        return json.writeValueAsString(java.util.Map.of("servers", String.join(",", servers), "expectedVersion", expectedVersion));
    }

    private HttpResponse<String> get(String uri) throws IOException, InterruptedException {
        return get(uri, Duration.ofSeconds(10));
    }

    private HttpResponse<String> get(String uri, Duration timeout) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(uri)).timeout(timeout).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String uri, String body) throws IOException, InterruptedException {
        return post(uri, body, Duration.ofSeconds(10));
    }

    private HttpResponse<String> post(String uri, String body, Duration timeout) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(uri)).timeout(timeout)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }
}
