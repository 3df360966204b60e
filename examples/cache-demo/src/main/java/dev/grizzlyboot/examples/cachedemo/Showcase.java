package dev.grizzlyboot.examples.cachedemo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.stereotype.Component;

/**
 * The tour of the demo: calls the app's own endpoints over HTTP, in an order that shows a slow
 * first call, a fast repeat, {@code @CachePut}, {@code @CacheEvict} and the second cache, and
 * reports each call's time. Thread-safe; each run starts by emptying the caches.
 */
@Component
class Showcase {

    private static final String ISBN = "9780134685991";
    private static final String WARM_UP_ISBN = "9781617294945";
    private static final Pattern SERVER_MILLIS = Pattern.compile("\"millis\":([0-9.]+)");

    private final WebServerApplicationContext context;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Showcase(WebServerApplicationContext context) {
        this.context = context;
    }

    /**
     * One HTTP call of the tour: its end-to-end time and, for reads and writes, the time the
     * server spent in the repository call (from the answer's {@code millis}).
     */
    record Step(String method, String path, int status, double millis, Double serverMillis, String note, String body) {
    }

    /** Runs the tour against this application. */
    List<Step> run() {
        List<Step> steps = new ArrayList<>();
        // Untimed warm-up on another book: the first requests of a fresh JVM pay for class loading and JIT
        // (HTTP, JSON, serialization, the cache's first read of its generation), which is not what we show.
        call("GET", "/books/" + WARM_UP_ISBN, "warm-up");
        call("GET", "/books/" + WARM_UP_ISBN, "warm-up");
        steps.add(call("DELETE", "/cache", "start with empty caches"));
        steps.add(call("GET", "/books/" + ISBN, "first call: the slow repository"));
        steps.add(call("GET", "/books/" + ISBN, "repeat: served from memcached"));
        steps.add(call("PUT", "/books/" + ISBN + "?title=Effective%20Java%2C%203rd%20ed.&author=Joshua%20Bloch",
                "@CachePut: slow write, cache updated"));
        steps.add(call("GET", "/books/" + ISBN, "the updated book, from memcached"));
        steps.add(call("DELETE", "/books/" + ISBN + "/cache", "@CacheEvict: entry dropped"));
        steps.add(call("GET", "/books/" + ISBN, "after the evict: slow again"));
        steps.add(call("GET", "/bestsellers", "second cache (default TTL): slow"));
        steps.add(call("GET", "/bestsellers", "repeat: served from memcached"));
        return steps;
    }

    /** The base address of this application's HTTP server. */
    String baseUrl() {
        return "http://127.0.0.1:" + context.getWebServer().getPort();
    }

    private static Double serverMillis(String body) {
        Matcher matcher = SERVER_MILLIS.matcher(body);
        return matcher.find() ? Double.valueOf(matcher.group(1)) : null;
    }

    private Step call(String method, String path, String note) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + path))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .timeout(Duration.ofSeconds(30))
                .build();
        long start = System.nanoTime();
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            double millis = Math.round((System.nanoTime() - start) / 10_000.0) / 100.0;
            return new Step(method, path, response.statusCode(), millis, serverMillis(response.body()), note, response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("calling " + method + " " + path, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted calling " + path, e);
        }
    }
}
