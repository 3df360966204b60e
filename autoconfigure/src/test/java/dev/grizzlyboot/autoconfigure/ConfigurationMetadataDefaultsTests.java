package dev.grizzlyboot.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataGroup;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataProperty;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepository;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataSource;
import org.springframework.boot.configurationmetadata.ConfigurationMetadataRepositoryJsonBuilder;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.core.annotation.MergedAnnotations;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata against the code, the way an IDE user meets it: a default the metadata
 * shows is what an unset property binds to, and every switch Boot's conventions read has an entry.
 */
class ConfigurationMetadataDefaultsTests {

    private static final Path METADATA = Path.of("target/classes/META-INF/spring-configuration-metadata.json");

    private static final Path AUTO_CONFIGURATIONS = Path.of(
            "src/main/resources/META-INF/spring/org.springframework.boot.autoconfigure.AutoConfiguration.imports");

    /**
     * Binds each @ConfigurationProperties class once from nothing and once with the property set to its
     * documented default: the two must hold the same value, or the documented default is not the real one.
     */
    @Test
    void everyDocumentedDefaultIsWhatAnUnsetPropertyBindsTo() throws Exception {
        List<String> checked = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        Map<String, String> sourceTypes = sourceTypes();
        for (ConfigurationMetadataProperty property : properties().values()) {
            Object documented = property.getDefaultValue();
            Class<?> root = configurationPropertiesClass(sourceTypes.get(property.getId()));
            if (documented == null || root == null) {
                continue;
            }
            String prefix = prefix(root);
            String path = camelCase(property.getId().substring(prefix.length() + 1));
            Object unset = new BeanWrapperImpl(bind(root, prefix, Map.of())).getPropertyValue(path);
            Object explicit = new BeanWrapperImpl(bind(root, prefix, Map.of(property.getId(), asText(documented))))
                    .getPropertyValue(path);
            checked.add(property.getId());
            if (!Objects.equals(unset, explicit)) {
                wrong.add(property.getId() + ": documented " + asText(documented) + ", binds to " + unset);
            }
        }
        assertThat(checked).as("properties whose default was checked").hasSizeGreaterThan(40);
        assertThat(wrong).as("documented defaults that are not the bound ones").isEmpty();
    }

    /** Boot's own health indicators list their management.health.*.enabled switch; ours must too. */
    @Test
    void everyHealthIndicatorSwitchIsInTheMetadata() throws Exception {
        Map<String, ConfigurationMetadataProperty> properties = properties();
        List<String> switches = new ArrayList<>();
        for (String name : Files.readAllLines(AUTO_CONFIGURATIONS)) {
            if (name.isBlank() || name.startsWith("#")) {
                continue;
            }
            MergedAnnotations.from(Class.forName(name.strip())).stream(ConditionalOnEnabledHealthIndicator.class)
                    .forEach(annotation -> switches.add("management.health." + annotation.getString("value") + ".enabled"));
        }
        assertThat(switches).hasSizeGreaterThanOrEqualTo(3);
        for (String name : switches) {
            assertThat(properties.keySet()).as("metadata entries").contains(name);
            assertThat(properties.get(name).getDescription()).as(name).isNotBlank();
            assertThat(properties.get(name).getDefaultValue()).as(name).isEqualTo(true);
        }
    }

    private static Object bind(Class<?> type, String prefix, Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values)).bindOrCreate(prefix, type);
    }

    /** The @ConfigurationProperties class a property's source type is, or is nested in; null for none. */
    private static Class<?> configurationPropertiesClass(String sourceType) throws ClassNotFoundException {
        if (sourceType == null) {
            return null;
        }
        for (Class<?> type = Class.forName(sourceType); type != null; type = type.getEnclosingClass()) {
            if (type.isAnnotationPresent(ConfigurationProperties.class)) {
                return type;
            }
        }
        return null;
    }

    private static String prefix(Class<?> type) {
        ConfigurationProperties annotation = type.getAnnotation(ConfigurationProperties.class);
        return annotation.prefix().isEmpty() ? annotation.value() : annotation.prefix();
    }

    private static String camelCase(String dashed) {
        return Arrays.stream(dashed.split("\\."))
                .map(segment -> {
                    String[] words = segment.split("-");
                    StringBuilder camel = new StringBuilder(words[0]);
                    for (int i = 1; i < words.length; i++) {
                        camel.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
                    }
                    return camel.toString();
                })
                .collect(Collectors.joining("."));
    }

    /** A metadata default as a user would write it in application.properties. */
    private static String asText(Object value) {
        if (value instanceof Collection<?> values) {
            return values.stream().map(String::valueOf).collect(Collectors.joining(","));
        }
        if (value instanceof Object[] values) {
            return Arrays.stream(values).map(String::valueOf).collect(Collectors.joining(","));
        }
        return String.valueOf(value);
    }

    private static Map<String, ConfigurationMetadataProperty> properties() throws IOException {
        return repository().getAllProperties();
    }

    /** Each property's source type, the class that declares it (none for additional-only entries). */
    private static Map<String, String> sourceTypes() throws IOException {
        Map<String, String> sourceTypes = new HashMap<>();
        for (ConfigurationMetadataGroup group : repository().getAllGroups().values()) {
            for (ConfigurationMetadataSource source : group.getSources().values()) {
                source.getProperties().keySet().forEach(id -> sourceTypes.put(id, source.getType()));
            }
        }
        return sourceTypes;
    }

    private static ConfigurationMetadataRepository repository() throws IOException {
        assertThat(METADATA).as("generated by spring-boot-configuration-processor at compile time").exists();
        try (InputStream in = Files.newInputStream(METADATA)) {
            return ConfigurationMetadataRepositoryJsonBuilder.create(in).build();
        }
    }
}
