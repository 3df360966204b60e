package dev.grizzlyboot.autoconfigure.memcached;

import java.util.List;

import dev.grizzlyboot.memcached.transcoder.DefaultTranscoder;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurationPackages;

/**
 * Turns {@code grizzly.memcached.transcoder.*} into the client's {@link DefaultTranscoder}. With no
 * {@code allowed-classes}, the application's own classes are allowed as Spring Boot finds entities:
 * every auto-configuration package (that of the {@code @SpringBootApplication} class) with its
 * sub-packages. Without that, every {@code @Cacheable} returning an application class would be a
 * logged miss on every call.
 */
final class TranscoderSettings {

    private TranscoderSettings() {
    }

    /** The transcoder, resolving classes with {@code classLoader}, the one DevTools replaces on a restart. */
    static DefaultTranscoder transcoder(GrizzlyMemcachedProperties.Transcoder properties, BeanFactory beanFactory,
            ClassLoader classLoader) {
        return DefaultTranscoder.builder()
                .compressionThreshold(Math.toIntExact(properties.getCompressionThreshold().toBytes()))
                .maxUncompressedSize(Math.toIntExact(properties.getMaxUncompressedSize().toBytes()))
                .allow(allowedClasses(properties, beanFactory).toArray(String[]::new))
                .classLoader(classLoader)
                .build();
    }

    private static List<String> allowedClasses(GrizzlyMemcachedProperties.Transcoder properties, BeanFactory beanFactory) {
        if (!properties.getAllowedClasses().isEmpty() || !AutoConfigurationPackages.has(beanFactory)) {
            return properties.getAllowedClasses();
        }
        return AutoConfigurationPackages.get(beanFactory).stream().map(pkg -> pkg + ".**").toList();
    }
}
