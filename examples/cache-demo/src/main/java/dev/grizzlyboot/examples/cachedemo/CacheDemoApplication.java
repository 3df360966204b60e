package dev.grizzlyboot.examples.cachedemo;

import java.util.List;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A Spring Boot web app whose slow {@link BookRepository} is cached in memcached through the
 * grizzly-boot starter. Without {@code grizzly.memcached.servers} it starts two local memcached
 * processes itself.
 *
 * <p>One command builds it, runs the showcase over HTTP, prints the timings and exits:
 * {@code ./mvnw -q -pl examples/cache-demo -am -DskipTests verify exec:java}. To keep it running
 * on port 8080 and try it with curl, add {@code -Dexec.args="--server.port=8080"}.
 */
@SpringBootApplication
@EnableCaching
public class CacheDemoApplication {

    public static void main(String[] args) {
        LocalMemcached localMemcached = new LocalMemcached();
        Runtime.getRuntime().addShutdownHook(new Thread(localMemcached::close, "local-memcached-stop"));
        SpringApplication application = new SpringApplication(CacheDemoApplication.class);
        application.addListeners(localMemcached);
        ConfigurableApplicationContext context = application.run(args);
        Showcase showcase = context.getBean(Showcase.class);
        boolean exitAfterShowcase = context.getEnvironment().getProperty("demo.exit-after-showcase", Boolean.class, false);
        try {
            printShowcase(showcase.run());
        } catch (RuntimeException e) {
            context.close();
            localMemcached.close();
            throw e;
        }
        if (exitAfterShowcase) {
            context.close();
            localMemcached.close();
            return;
        }
        String base = showcase.baseUrl();
        System.out.println();
        System.out.println("The demo keeps running at " + base + " (Ctrl-C stops it and its local memcached). Try:");
        System.out.println("  curl " + base + "/books/9780321349606      # twice: the repeat is fast");
        System.out.println("  curl -X DELETE " + base + "/books/9780321349606/cache");
        System.out.println("  curl " + base + "/bestsellers");
        System.out.println("  curl " + base + "/showcase                # the whole tour, as JSON");
    }

    private static void printShowcase(List<Showcase.Step> steps) {
        System.out.println();
        System.out.println("== cache demo: the app calls its own endpoints over HTTP ==");
        System.out.printf("%-6s %-34s %6s %11s %12s  %s%n", "", "path", "status", "over HTTP", "repository", "");
        for (Showcase.Step step : steps) {
            String server = step.serverMillis() == null ? "" : String.format("%9.2f ms", step.serverMillis());
            System.out.printf("%-6s %-34s %6d %8.2f ms %12s  %s%n", step.method(), shorten(step.path()), step.status(),
                    step.millis(), server, step.note());
        }
        Showcase.Step first = steps.get(1);
        Showcase.Step repeat = steps.get(2);
        if (repeat.millis() < first.millis() / 2) {
            System.out.printf("%nFirst call %.0f ms, repeat %.2f ms: the repeat came from memcached.%n",
                    first.millis(), repeat.millis());
        } else {
            // A memcached outage degrades the cache to calling the method: the app still answers, just slowly.
            System.out.printf("%nFirst call %.0f ms, repeat %.0f ms: the repeat was NOT served from memcached. "
                    + "Is memcached reachable? See the warnings above.%n", first.millis(), repeat.millis());
        }
    }

    private static String shorten(String path) {
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query) + "?...";
    }
}
