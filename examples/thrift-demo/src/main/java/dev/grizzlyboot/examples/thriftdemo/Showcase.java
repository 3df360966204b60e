package dev.grizzlyboot.examples.thriftdemo;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import dev.grizzlyboot.examples.thriftdemo.api.Calculator;
import dev.grizzlyboot.examples.thriftdemo.api.DivideByZero;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import org.apache.thrift.TException;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.stereotype.Component;

/**
 * The tour of the demo: calls the Thrift service through the client bean {@code calculator}
 * (configured in application.yml), then reads the app's health over HTTP and the Thrift meters
 * from the registry. Run from one thread at a time.
 */
@Component
class Showcase {
    private final Calculator.Iface calculator;
    private final WebServerApplicationContext context;
    private final MeterRegistry meters;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    Showcase(@Qualifier("calculator") Calculator.Iface calculator, WebServerApplicationContext context,
             MeterRegistry meters) {
        this.calculator = calculator;
        this.context = context;
        this.meters = meters;
    }

    /** One Thrift call of the tour and what it returned or threw. */
    record Call(String call, String result) {
    }

    /** What the tour found: the calls, the health JSON, and one line per Thrift meter. */
    record Report(List<Call> calls, String health, List<String> meters) {
    }

    Report run() throws TException {
        List<Call> calls = new ArrayList<>();
        calls.add(new Call("add(20, 22)", Integer.toString(calculator.add(20, 22))));
        calls.add(new Call("divide(84, 2)", Integer.toString(calculator.divide(84, 2))));
        try {
            calculator.divide(1, 0);
            calls.add(new Call("divide(1, 0)", "returned, but should have thrown"));
        } catch (DivideByZero e) {
            calls.add(new Call("divide(1, 0)", "threw the declared " + e));
        }
        for (int i = 1; i <= 3; i++) {
            calculator.note("note " + i);
        }
        calls.add(new Call("note(...) x3, oneway", "sent"));
        // One caller at a time reuses the same pooled connection, and the server handles a
        // connection's messages in order: the three notes are counted before this call runs.
        calls.add(new Call("notesReceived()", Integer.toString(calculator.notesReceived())));
        return new Report(calls, get("/actuator/health"), thriftMeters());
    }

    /** The base address of this application's HTTP server. */
    String baseUrl() {
        return "http://127.0.0.1:" + context.getWebServer().getPort();
    }

    private List<String> thriftMeters() {
        return meters.getMeters().stream()
                .filter(meter -> meter.getId().getName().startsWith("thrift."))
                .sorted(Comparator.comparing((Meter meter) -> meter.getId().getName())
                        .thenComparing(meter -> meter.getId().getTags().toString()))
                .map(Showcase::describe)
                .toList();
    }

    private static String describe(Meter meter) {
        String tags = meter.getId().getTags().stream().map(Tag::getValue).collect(Collectors.joining(" "));
        String value = meter instanceof Timer timer
                ? String.format("count=%d mean=%.2f ms", timer.count(), timer.mean(TimeUnit.MILLISECONDS))
                : String.format("value=%.0f", meter.measure().iterator().next().getValue());
        return String.format("%-26s %-48s %s", meter.getId().getName(), tags, value);
    }

    private String get(String path) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(10)).build();
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (IOException e) {
            throw new IllegalStateException("GET " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during GET " + path, e);
        }
    }
}
