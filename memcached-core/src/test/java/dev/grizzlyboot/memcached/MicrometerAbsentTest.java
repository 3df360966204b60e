package dev.grizzlyboot.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.function.Function;

import dev.grizzlyboot.testsupport.MemcachedExtension;
import org.glassfish.grizzly.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;

/**
 * Micrometer is optional: a client built without a meter registry works in a class loader that has
 * the client, Grizzly and SLF4J only, and loads none of the client's Micrometer code.
 */
class MicrometerAbsentTest {

    @RegisterExtension
    static MemcachedExtension memcached = MemcachedExtension.server();

    @Test
    void aClientWithoutARegistryNeedsNoMicrometer() throws Exception {
        try (InspectableLoader loader = new InspectableLoader(location(MemcachedClient.class), location(WithoutMicrometer.class),
                location(Buffer.class), location(Logger.class))) {
            assertThatThrownBy(() -> Class.forName("io.micrometer.core.instrument.MeterRegistry", false, loader))
                    .isInstanceOf(ClassNotFoundException.class);
            var constructor = loader.loadClass(WithoutMicrometer.class.getName()).getDeclaredConstructor();
            constructor.setAccessible(true);
            @SuppressWarnings("unchecked")
            Function<String, Object> roundTrip = (Function<String, Object>) constructor.newInstance();

            assertThat(roundTrip.apply(memcached.first().address())).isEqualTo("works");
            assertThat(loader.loaded(MicrometerClientMeters.class.getName())).isFalse();
        }
    }

    private static URL location(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }

    /** Loads only from its URLs and the JDK, and says which classes it has loaded. */
    private static final class InspectableLoader extends URLClassLoader {

        InspectableLoader(URL... urls) {
            super(urls, ClassLoader.getPlatformClassLoader());
        }

        boolean loaded(String name) {
            return findLoadedClass(name) != null;
        }
    }
}
