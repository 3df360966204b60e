package dev.grizzlyboot.autoconfigure.memcached;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A start-up with a malformed server list fails with the analyzer's description and action (which
 * Spring Boot prints only if it finds the analyzer in {@code META-INF/spring.factories}).
 */
@ExtendWith(OutputCaptureExtension.class)
class InvalidServerListFailureAnalyzerTests {

    @Test
    void aMalformedEntryIsExplained(CapturedOutput output) {
        assertThatThrownBy(() -> start("127.0.0.1:11211,127.0.0.1:not-a-port"))
                .hasRootCauseInstanceOf(NumberFormatException.class);
        assertThat(output).contains("APPLICATION FAILED TO START",
                "The memcached server list in 'grizzly.memcached.servers' is not valid.",
                "Value: 127.0.0.1:11211,127.0.0.1:not-a-port", "not-a-port",
                "Set 'grizzly.memcached.servers' to memcached servers as host:port").doesNotContain("%n");
    }

    @Test
    void aServerListedTwiceIsExplained(CapturedOutput output) {
        assertThatThrownBy(() -> start("127.0.0.1:11211, 127.0.0.1:11211")).isNotNull();
        assertThat(output).contains("APPLICATION FAILED TO START", "Reason: a server is listed twice",
                "each server once");
    }

    private static void start(String servers) {
        SpringApplication application = new SpringApplication(App.class);
        application.setWebApplicationType(WebApplicationType.NONE);
        application.run("--grizzly.memcached.servers=" + servers, "--spring.main.banner-mode=off");
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(GrizzlyMemcachedAutoConfiguration.class)
    static class App {
    }
}
