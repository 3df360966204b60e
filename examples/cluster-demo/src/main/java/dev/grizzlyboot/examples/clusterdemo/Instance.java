package dev.grizzlyboot.examples.clusterdemo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One running {@link ClusterDemoApplication} on a random loopback port, and the HTTP calls the
 * demo makes to it. Used from the demo's main thread only.
 */
final class Instance implements AutoCloseable {

    private static final JsonMapper json = JsonMapper.builder().build();
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    final String name;
    final String baseUrl;
    private final ConfigurableApplicationContext context;

    private Instance(String name, ConfigurableApplicationContext context) {
        this.name = name;
        this.context = context;
        this.baseUrl = "http://127.0.0.1:" + context.getEnvironment().getProperty("local.server.port");
    }

    static Instance start(String name, String memcachedServers, String zooKeeper, String... extraProperties) {
        List<String> properties = new ArrayList<>(List.of("server.port=0", "server.address=127.0.0.1",
                "spring.application.name=cluster-demo", "grizzly.memcached.servers=" + memcachedServers,
                "grizzly.memcached.zookeeper.connect-string=" + zooKeeper,
                "grizzly.memcached.zookeeper.member-id=" + name));
        properties.addAll(List.of(extraProperties));
        return new Instance(name, new SpringApplicationBuilder(ClusterDemoApplication.class)
                .properties(properties.toArray(String[]::new)).run());
    }

    JsonNode getJson(String path) {
        return parse(get(path).body());
    }

    static JsonNode parse(String body) {
        return json.readTree(body);
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(10)).build());
    }

    HttpResponse<String> post(String path, Map<String, Object> body) {
        return send(HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(body))).build());
    }

    static String pretty(JsonNode node) {
        return json.writerWithDefaultPrettyPrinter().writeValueAsString(node);
    }

    @Override
    public void close() {
        context.close();
    }

    private static HttpResponse<String> send(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(request.method() + " " + request.uri() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
