package dev.grizzlyboot.autoconfigure;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.ClassPathResource;

/** Loads a YAML file from the test class path into a context, as an application.yml would be. */
public final class YamlFiles {

    private YamlFiles() {
    }

    /** An initializer adding the YAML file's properties with the lowest precedence: properties set otherwise win. */
    public static ApplicationContextInitializer<ConfigurableApplicationContext> load(String resource) {
        return context -> {
            try {
                new YamlPropertySourceLoader().load(resource, new ClassPathResource(resource))
                        .forEach(source -> context.getEnvironment().getPropertySources().addLast(source));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}
