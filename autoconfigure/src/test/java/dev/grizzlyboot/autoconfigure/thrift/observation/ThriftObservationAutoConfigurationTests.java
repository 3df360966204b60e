package dev.grizzlyboot.autoconfigure.thrift.observation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.grizzlyboot.autoconfigure.thrift.CalculatorHandlerConfiguration;
import dev.grizzlyboot.autoconfigure.thrift.client.ThriftClientAutoConfiguration;
import dev.grizzlyboot.autoconfigure.thrift.server.ThriftServerAutoConfiguration;
import dev.grizzlyboot.thrift.CalculatorHandler;
import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class ThriftObservationAutoConfigurationTests {
    private final ThriftServer remote = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
            .host("127.0.0.1").port(0).build().start();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ThriftServerAutoConfiguration.class,
                    ThriftClientAutoConfiguration.class, ThriftObservationAutoConfiguration.class))
            .withUserConfiguration(MetersConfiguration.class, CalculatorHandlerConfiguration.class)
            .withPropertyValues("grizzly.thrift.server.host=127.0.0.1", "grizzly.thrift.server.port=0",
                    "grizzly.thrift.clients.calculator.servers=127.0.0.1:" + remote.port(),
                    "grizzly.thrift.clients.calculator.service=dev.grizzlyboot.thrift.tutorial.Calculator");

    @AfterEach
    void stopRemote() {
        remote.close();
    }

    @Test
    void serverAndClientCallsBecomeTimersWithServiceClientMethodAndOutcome() {
        runner.run(context -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            assertThat(context.getBean("calculator", Calculator.Iface.class).add(1, 2)).isEqualTo(3);
            assertThat(meters.get("thrift.client.requests")
                    .tags("client", "calculator", "method", "add", "outcome", "success").timer().count()).isEqualTo(1);

            int port = context.getEnvironment().getRequiredProperty("local.grizzly.thrift.port", Integer.class);
            try (ThriftClient plain = ThriftClient.builder().server("127.0.0.1", port).build()) {
                assertThat(plain.proxy(Calculator.Iface.class).add(2, 2)).isEqualTo(4);
            }
            await().atMost(Duration.ofSeconds(5)).until(() -> meters.find("thrift.server.requests")
                    .tags("service", "Calculator", "method", "add", "outcome", "success").timer() != null);
        });
    }

    @Test
    void poolGaugesFollowEachClient() {
        runner.run(context -> {
            MeterRegistry meters = context.getBean(MeterRegistry.class);
            context.getBean(ThriftClientPoolMetrics.class).bindTo(meters);
            assertThat(gauge(meters, "thrift.client.connections", "idle")).isZero();

            assertThat(context.getBean("calculator", Calculator.Iface.class).add(1, 2)).isEqualTo(3);

            assertThat(gauge(meters, "thrift.client.connections", "idle")).isEqualTo(1);
            assertThat(gauge(meters, "thrift.client.connections", "busy")).isZero();
            assertThat(gauge(meters, "thrift.client.servers", "in_rotation")).isEqualTo(1);
            assertThat(gauge(meters, "thrift.client.servers", "out_of_rotation")).isZero();
        });
    }

    @Test
    void withoutAnObservationRegistryNothingIsObserved() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ThriftServerAutoConfiguration.class,
                        ThriftClientAutoConfiguration.class, ThriftObservationAutoConfiguration.class))
                .withUserConfiguration(CalculatorHandlerConfiguration.class)
                .withPropertyValues("grizzly.thrift.server.host=127.0.0.1", "grizzly.thrift.server.port=0")
                .run(context -> assertThat(context).hasNotFailed()
                        .doesNotHaveBean("thriftServerObservationCustomizer")
                        .doesNotHaveBean(ThriftClientPoolMetrics.class));
    }

    private static double gauge(MeterRegistry meters, String name, String state) {
        return meters.get(name).tags("client", "calculator", "state", state).gauge().value();
    }

    @Configuration(proxyBeanMethods = false)
    static class MetersConfiguration {
        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        ObservationRegistry observationRegistry(MeterRegistry meterRegistry) {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meterRegistry));
            return registry;
        }
    }
}
