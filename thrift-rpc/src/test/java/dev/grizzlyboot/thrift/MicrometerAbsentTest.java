package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.function.Supplier;

import dev.grizzlyboot.thrift.server.ThriftServer;
import org.apache.thrift.TProcessor;
import org.glassfish.grizzly.Buffer;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/**
 * Micrometer is optional: a server and a client built without observers work in a class loader
 * that has thrift-rpc, libthrift, Grizzly and SLF4J only.
 */
class MicrometerAbsentTest {

    @Test
    void serverAndClientWithoutObserversNeedNoMicrometer() throws Exception {
        try (URLClassLoader loader = new URLClassLoader(new URL[] {location(ThriftServer.class),
                location(WithoutMicrometer.class), location(TProcessor.class), location(Buffer.class),
                location(Logger.class)}, ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> Class.forName("io.micrometer.observation.ObservationRegistry", false, loader))
                    .isInstanceOf(ClassNotFoundException.class);
            var constructor = loader.loadClass(WithoutMicrometer.class.getName()).getDeclaredConstructor();
            constructor.setAccessible(true);

            assertThat(((Supplier<?>) constructor.newInstance()).get()).isEqualTo(42);
        }
    }

    private static URL location(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }
}
