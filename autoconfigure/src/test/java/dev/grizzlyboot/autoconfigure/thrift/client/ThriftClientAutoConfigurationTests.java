package dev.grizzlyboot.autoconfigure.thrift.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.grizzlyboot.autoconfigure.internal.BundleSslContexts;
import dev.grizzlyboot.thrift.CalculatorHandler;
import dev.grizzlyboot.thrift.client.ThriftTransportFailureException;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.TMultiplexedProcessor;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslOptions;
import org.springframework.boot.ssl.jks.JksSslStoreBundle;
import org.springframework.boot.ssl.jks.JksSslStoreDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class ThriftClientAutoConfigurationTests {
    private static final String CALCULATOR = "grizzly.thrift.clients.calculator.";
    private static final String SERVICE = "dev.grizzlyboot.thrift.tutorial.Calculator";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ThriftClientAutoConfiguration.class, SslAutoConfiguration.class));
    private final List<ThriftServer> servers = new ArrayList<>();

    @AfterEach
    void stopServers() {
        servers.forEach(ThriftServer::close);
    }

    @Test
    void entryBecomesAnIfaceBeanNamedLikeTheEntry() {
        CalculatorHandler handler = new CalculatorHandler();
        int port = serve(new Calculator.Processor<>(handler));
        runner.withPropertyValues(CALCULATOR + "servers=127.0.0.1:" + port, CALCULATOR + "service=" + SERVICE)
                .run(context -> {
                    assertThat(context).hasSingleBean(Calculator.Iface.class);
                    assertThat(context.getBean("calculator")).isSameAs(context.getBean(Calculator.Iface.class));
                    assertThat(context.getBean(Calculator.Iface.class).add(20, 22)).isEqualTo(42);
                    assertThat(handler.calls).hasValue(1);
                });
    }

    @Test
    void qualifierPicksOneOfTwoClientsOfTheSameService() {
        CalculatorHandler first = new CalculatorHandler();
        CalculatorHandler second = new CalculatorHandler();
        int firstPort = serve(new Calculator.Processor<>(first));
        int secondPort = serve(new Calculator.Processor<>(second));
        runner.withUserConfiguration(BillingConfiguration.class)
                .withPropertyValues("grizzly.thrift.clients.first.servers=127.0.0.1:" + firstPort,
                        "grizzly.thrift.clients.first.service=" + SERVICE,
                        "grizzly.thrift.clients.second.servers=127.0.0.1:" + secondPort,
                        "grizzly.thrift.clients.second.service=" + SERVICE + ".Iface")
                .run(context -> {
                    assertThat(context.getBean(Billing.class).calculator.add(1, 2)).isEqualTo(3);
                    assertThat(first.calls).hasValue(0);
                    assertThat(second.calls).hasValue(1);
                });
    }

    @Test
    void multiplexedNameAndMethodTimeoutsApply() {
        TMultiplexedProcessor multiplexed = new TMultiplexedProcessor();
        multiplexed.registerProcessor("calc", new Calculator.Processor<>(new CalculatorHandler()));
        int port = serve(multiplexed);
        runner.withPropertyValues(CALCULATOR + "servers=127.0.0.1:" + port, CALCULATOR + "service=" + SERVICE,
                        CALCULATOR + "multiplexed-name=calc", CALCULATOR + "method-timeouts.add=200ms",
                        CALCULATOR + "retries=0")
                .run(context -> {
                    Calculator.Iface calculator = context.getBean(Calculator.Iface.class);
                    assertThat(calculator.add(2, 3)).isEqualTo(5);
                    assertThatThrownBy(() -> calculator.add(CalculatorHandler.SLEEP, 3000))
                            .isInstanceOfSatisfying(ThriftTransportFailureException.class,
                                    e -> assertThat(e.getType()).isEqualTo(TTransportException.TIMED_OUT));
                    assertThat(calculator.calculate(1, new dev.grizzlyboot.thrift.tutorial.Work(6, 7,
                            dev.grizzlyboot.thrift.tutorial.Operation.MULTIPLY))).isEqualTo(42);
                });
    }

    @Test
    void maxFrameSizeLimitsRequestsAndReplies() {
        int port = serve(new Calculator.Processor<>(new CalculatorHandler()));
        runner.withPropertyValues(CALCULATOR + "servers=127.0.0.1:" + port, CALCULATOR + "service=" + SERVICE,
                        CALCULATOR + "max-frame-size=1KB")
                .run(context -> {
                    Calculator.Iface calculator = context.getBean(Calculator.Iface.class);
                    assertThat(calculator.echo(ByteBuffer.allocate(900))).isEqualTo(ByteBuffer.allocate(900));
                    assertThatThrownBy(() -> calculator.echo(ByteBuffer.allocate(1100)))
                            .isInstanceOfSatisfying(ThriftTransportFailureException.class,
                                    e -> assertThat(e).hasMessageContaining("maximum frame size of 1024"));
                });
    }

    @Test
    void customizerSeesEachClientByName() {
        int port = serve(new Calculator.Processor<>(new CalculatorHandler()));
        List<String> customized = new ArrayList<>();
        runner.withBean(ThriftClientCustomizer.class, () -> (name, builder) -> {
                    customized.add(name);
                    builder.maxConnections(1);
                })
                .withPropertyValues(CALCULATOR + "servers=127.0.0.1:" + port, CALCULATOR + "service=" + SERVICE)
                .run(context -> {
                    assertThat(context.getBean(Calculator.Iface.class).add(1, 1)).isEqualTo(2);
                    assertThat(customized).containsExactly("calculator");
                });
    }

    @Test
    void closingTheContextClosesThePools() {
        ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).build().start();
        servers.add(server);
        List<Calculator.Iface> kept = new ArrayList<>();
        runner.withPropertyValues(CALCULATOR + "servers=127.0.0.1:" + server.port(), CALCULATOR + "service=" + SERVICE)
                .run(context -> {
                    Calculator.Iface calculator = context.getBean(Calculator.Iface.class);
                    assertThat(calculator.add(1, 1)).isEqualTo(2);
                    assertThat(server.openConnections()).isEqualTo(1);
                    kept.add(calculator);
                });
        await().atMost(Duration.ofSeconds(5)).until(() -> server.openConnections() == 0);
        assertThatThrownBy(() -> kept.get(0).add(1, 1)).hasMessageContaining("closed");
    }

    @Test
    void sslBundleOfTheClientIsUsed() {
        SslBundle serverBundle = SslBundle.of(new JksSslStoreBundle(
                new JksSslStoreDetails("PKCS12", null, "classpath:thrift-tls/server.p12", "changeit"), null));
        ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).tls(serverBundle.createSslContext(), false).build().start();
        servers.add(server);
        runner.withPropertyValues(CALCULATOR + "servers=127.0.0.1:" + server.port(), CALCULATOR + "service=" + SERVICE,
                        CALCULATOR + "ssl.bundle=thrift-client",
                        "spring.ssl.bundle.jks.thrift-client.truststore.location=classpath:thrift-tls/client-truststore.p12",
                        "spring.ssl.bundle.jks.thrift-client.truststore.password=changeit")
                .run(context -> assertThat(context.getBean(Calculator.Iface.class).add(40, 2)).isEqualTo(42));
    }

    @Test
    void clientSpeaksOnlyTheProtocolsOfItsBundlesOptions() {
        SslBundle serverBundle = SslBundle.of(new JksSslStoreBundle(
                new JksSslStoreDetails("PKCS12", null, "classpath:thrift-tls/server.p12", "changeit"), null),
                null, SslOptions.of(null, new String[] { "TLSv1.3" }));
        ThriftServer server = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).tls(BundleSslContexts.create(serverBundle), false).build().start();
        servers.add(server);
        // The server speaks TLS 1.3 only and the client's bundle allows TLS 1.2 only: no handshake.
        runner.withPropertyValues(CALCULATOR + "servers=127.0.0.1:" + server.port(), CALCULATOR + "service=" + SERVICE,
                        CALCULATOR + "ssl.bundle=thrift-client", CALCULATOR + "retries=0",
                        "spring.ssl.bundle.jks.thrift-client.truststore.location=classpath:thrift-tls/client-truststore.p12",
                        "spring.ssl.bundle.jks.thrift-client.truststore.password=changeit",
                        "spring.ssl.bundle.jks.thrift-client.options.enabled-protocols=TLSv1.2")
                .run(context -> assertThatThrownBy(() -> context.getBean(Calculator.Iface.class).add(40, 2))
                        .isInstanceOf(ThriftTransportFailureException.class));
    }

    @Test
    void entryWithoutServiceFailsTheStartWithTheProperty() {
        runner.withPropertyValues(CALCULATOR + "servers=127.0.0.1:1")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("grizzly.thrift.clients.calculator.service"));
    }

    @Test
    void unknownServiceFailsTheStartWithTheClassName() {
        runner.withPropertyValues(CALCULATOR + "servers=127.0.0.1:1", CALCULATOR + "service=no.such.Service")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("no.such.Service$Iface"));
    }

    @Test
    void entryWithoutServersFailsTheStartWithTheProperty() {
        runner.withPropertyValues(CALCULATOR + "service=" + SERVICE)
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("grizzly.thrift.clients.calculator.servers"));
    }

    private int serve(org.apache.thrift.TProcessor processor) {
        ThriftServer server = ThriftServer.builder(processor).host("127.0.0.1").port(0).build().start();
        servers.add(server);
        return server.port();
    }

    static final class Billing {
        final Calculator.Iface calculator;

        Billing(Calculator.Iface calculator) {
            this.calculator = calculator;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BillingConfiguration {
        @Bean
        Billing billing(@Qualifier("second") Calculator.Iface calculator) {
            return new Billing(calculator);
        }
    }
}
