package dev.grizzlyboot.examples.clusterdemo;

import java.time.LocalTime;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.cache.annotation.Cacheable;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /greetings/{name}}: a {@code @Cacheable} greeting that says which instance computed
 * it, so a caller can tell a value one instance cached from one the other computed. Thread-safe.
 */
@RestController
class GreetingController {

    private final String instance;

    GreetingController(@Value("${grizzly.memcached.zookeeper.member-id}") String instance) {
        this.instance = instance;
    }

    @GetMapping("/greetings/{name}")
    @Cacheable("greetings")
    public String greeting(@PathVariable String name) {
        return "Hello, " + name + " (computed by " + instance + " at " + LocalTime.now() + ")";
    }
}
