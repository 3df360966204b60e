package dev.grizzlyboot.autoconfigure.thrift.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.Map;

import dev.grizzlyboot.autoconfigure.thrift.CalculatorHandlerConfiguration;
import dev.grizzlyboot.autoconfigure.thrift.client.ThriftClientAutoConfiguration;
import dev.grizzlyboot.autoconfigure.thrift.server.ThriftServerAutoConfiguration;
import dev.grizzlyboot.thrift.CalculatorHandler;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.transport.TTransportException;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class ThriftHealthContributorAutoConfigurationTests {
    private static final String SERVICE = "dev.grizzlyboot.thrift.tutorial.Calculator";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ThriftServerAutoConfiguration.class,
                    ThriftClientAutoConfiguration.class, ThriftHealthContributorAutoConfiguration.class))
            .withPropertyValues("grizzly.thrift.server.host=127.0.0.1", "grizzly.thrift.server.port=0");

    @Test
    void serverIsUpWhileListeningAndDownOnceStopped() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class).run(context -> {
            assertThat(context).doesNotHaveBean("thriftClientsHealthIndicator");
            HealthIndicator indicator = context.getBean("thriftServerHealthIndicator", HealthIndicator.class);
            ThriftServer server = context.getBean(ThriftServer.class);
            Health up = indicator.health(true);
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsEntry("port", server.port()).containsEntry("openConnections", 0);

            server.stop(java.time.Duration.ZERO);
            assertThat(indicator.health(true).getStatus()).isEqualTo(Status.DOWN);
        });
    }

    @Test
    void clientsAreDownOnlyWhenOneHasNoServerInRotation() throws IOException {
        try (ThriftServer live = ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler()))
                .host("127.0.0.1").port(0).build().start()) {
            String dead = "127.0.0.1:" + closedPort();
            runner.withPropertyValues(
                            "grizzly.thrift.clients.mixed.servers=127.0.0.1:" + live.port() + "," + dead,
                            "grizzly.thrift.clients.mixed.service=" + SERVICE,
                            "grizzly.thrift.clients.mixed.retries=1",
                            "grizzly.thrift.clients.broken.servers=" + dead,
                            "grizzly.thrift.clients.broken.service=" + SERVICE,
                            "grizzly.thrift.clients.broken.retries=0")
                    .run(context -> {
                        assertThat(context).doesNotHaveBean("thriftServerHealthIndicator");
                        HealthIndicator indicator = context.getBean("thriftClientsHealthIndicator", HealthIndicator.class);
                        assertThat(indicator.health(true).getStatus()).isEqualTo(Status.UP);

                        // Both servers of "mixed" get a call; the dead one's connect fails and it leaves rotation.
                        Calculator.Iface mixed = context.getBean("mixed", Calculator.Iface.class);
                        assertThat(mixed.add(1, 1)).isEqualTo(2);
                        assertThat(mixed.add(2, 2)).isEqualTo(4);
                        Health mixedOnly = indicator.health(true);
                        assertThat(mixedOnly.getStatus()).isEqualTo(Status.UP);
                        assertThat(mixedOnly.getDetails().get("mixed")).isEqualTo(Map.of(
                                "inRotation", List.of("127.0.0.1:" + live.port()), "outOfRotation", List.of(dead)));

                        assertThatThrownBy(() -> context.getBean("broken", Calculator.Iface.class).add(1, 1))
                                .isInstanceOf(TTransportException.class);
                        Health down = indicator.health(true);
                        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
                        assertThat(down.getDetails().get("broken")).isEqualTo(Map.of(
                                "inRotation", List.of(), "outOfRotation", List.of(dead)));
                    });
        }
    }

    @Test
    void managementHealthThriftEnabledFalseRemovesBoth() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class)
                .withPropertyValues("management.health.thrift.enabled=false",
                        "grizzly.thrift.clients.calculator.servers=127.0.0.1:1",
                        "grizzly.thrift.clients.calculator.service=" + SERVICE)
                .run(context -> assertThat(context).hasNotFailed()
                        .doesNotHaveBean("thriftServerHealthIndicator")
                        .doesNotHaveBean("thriftClientsHealthIndicator"));
    }

    /**
     * An application's own bean under either of Boot's names for a contributor replaces ours, for the
     * server's and for the clients' contributor alike.
     */
    @Test
    void backsOffForTheApplicationsOwnIndicatorsUnderEitherName() {
        HealthIndicator own = () -> Health.outOfService().build();
        ApplicationContextRunner both = runner.withUserConfiguration(CalculatorHandlerConfiguration.class)
                .withPropertyValues("grizzly.thrift.clients.calculator.servers=127.0.0.1:1",
                        "grizzly.thrift.clients.calculator.service=" + SERVICE);
        both.run(context -> assertThat(context.getBeansOfType(HealthIndicator.class))
                .containsOnlyKeys("thriftServerHealthIndicator", "thriftClientsHealthIndicator"));
        for (String name : List.of("thriftServerHealthIndicator", "thriftServerHealthContributor",
                "thriftClientsHealthIndicator", "thriftClientsHealthContributor")) {
            String ours = name.startsWith("thriftServer") ? "thriftServerHealthIndicator" : "thriftClientsHealthIndicator";
            String other = ours.equals("thriftServerHealthIndicator") ? "thriftClientsHealthIndicator" : "thriftServerHealthIndicator";
            both.withBean(name, HealthIndicator.class, () -> own).run(context -> {
                assertThat(context).hasNotFailed();
                assertThat(context.getBeansOfType(HealthIndicator.class)).as(name).containsOnlyKeys(name, other);
                assertThat(context.getBean(name)).isSameAs(own);
                if (!name.equals(ours)) {
                    assertThat(context).doesNotHaveBean(ours);
                }
            });
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
