package dev.grizzlyboot.autoconfigure.thrift.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.autoconfigure.thrift.CalculatorHandlerConfiguration;
import dev.grizzlyboot.thrift.CalculatorHandler;
import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.client.ThriftTransportFailureException;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.shared.SharedService;
import dev.grizzlyboot.thrift.tutorial.shared.SharedStruct;
import org.apache.thrift.TException;
import org.apache.thrift.TMultiplexedProcessor;
import org.apache.thrift.TProcessor;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class ThriftServerAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ThriftServerAutoConfiguration.class, SslAutoConfiguration.class))
            .withPropertyValues("grizzly.thrift.server.host=127.0.0.1", "grizzly.thrift.server.port=0");

    @Test
    void noHandlerMeansNoServer() {
        runner.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ThriftServer.class));
    }

    @Test
    void oneHandlerIsServedByItsOwnProcessorOnThePublishedPort() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class).run(context -> {
            assertThat(context.getBean(TProcessor.class)).isInstanceOf(Calculator.Processor.class);
            try (ThriftClient client = clientOf(context)) {
                Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
                assertThat(calculator.add(20, 22)).isEqualTo(42);
                assertThat(calculator.getStruct(7)).isEqualTo(new SharedStruct(7, "value 7"));
            }
            assertThat(context.getBean(CalculatorHandler.class).calls).hasValue(2);
        });
    }

    @Test
    void severalHandlersAreMultiplexedUnderTheirNames() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class, SharedConfiguration.class).run(context -> {
            assertThat(context.getBean(TProcessor.class)).isInstanceOf(TMultiplexedProcessor.class);
            try (ThriftClient client = clientOf(context)) {
                Calculator.Iface calculator = client.proxyBuilder(Calculator.Iface.class).serviceName("Calculator").build();
                SharedService.Iface shared = client.proxyBuilder(SharedService.Iface.class).serviceName("shared").build();
                assertThat(calculator.add(1, 2)).isEqualTo(3);
                assertThat(shared.getStruct(5).getValue()).isEqualTo("shared 5");
            }
        });
    }

    @Test
    void twoHandlersUnderOneNameFailTheStartWithTheName() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class, SecondCalculatorConfiguration.class)
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .rootCause().hasMessageContaining("service 'Calculator'"));
    }

    @Test
    void applicationProcessorIsServedInPlaceOfTheHandlers() {
        CalculatorHandler own = new CalculatorHandler();
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class)
                .withBean("ownProcessor", TProcessor.class, () -> new Calculator.Processor<>(own))
                .run(context -> {
                    try (ThriftClient client = clientOf(context)) {
                        assertThat(client.proxy(Calculator.Iface.class).add(2, 2)).isEqualTo(4);
                    }
                    assertThat(own.calls).hasValue(1);
                    assertThat(context.getBean(CalculatorHandler.class).calls).hasValue(0);
                });
    }

    @Test
    void applicationServerMakesTheAutoConfigurationBackOff() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class)
                .withBean("ownServer", ThriftServer.class,
                        () -> ThriftServer.builder(new Calculator.Processor<>(new CalculatorHandler())).port(0).build())
                .run(context -> {
                    assertThat(context).hasSingleBean(ThriftServer.class).doesNotHaveBean(ThriftServerLifecycle.class);
                    assertThat(context.getBean(ThriftServer.class).isRunning()).isFalse();
                });
    }

    @Test
    void disabledServerIsNotCreated() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class)
                .withPropertyValues("grizzly.thrift.server.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(ThriftServer.class));
    }

    @Test
    void customizerRunsAfterTheProperties() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class)
                .withBean(ThriftServerCustomizer.class, () -> builder -> builder.maxFrameSize(1024))
                .run(context -> {
                    try (ThriftClient client = clientOf(context)) {
                        Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
                        assertThat(calculator.echo(ByteBuffer.wrap(new byte[100])).remaining()).isEqualTo(100);
                        assertThatThrownBy(() -> calculator.echo(ByteBuffer.wrap(new byte[2000])))
                                .isInstanceOf(ThriftTransportFailureException.class);
                    }
                });
    }

    @Test
    void shutdownLetsACallInFlightFinish() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class).run(context -> {
            CalculatorHandler handler = context.getBean(CalculatorHandler.class);
            ThriftServer server = context.getBean(ThriftServer.class);
            try (ThriftClient client = clientOf(context)) {
                Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
                CompletableFuture<Integer> slowCall = CompletableFuture.supplyAsync(() -> addSlowly(calculator, 1000));
                await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.get() == 1);

                context.close();

                assertThat(slowCall.get(10, TimeUnit.SECONDS)).isZero();
                assertThat(handler.slowCallsFinished).hasValue(1);
                assertThat(server.isRunning()).isFalse();
                assertThatThrownBy(() -> calculator.add(1, 1)).isInstanceOf(ThriftTransportFailureException.class);
            }
        });
    }

    @Test
    void whileShutdownWaitsForACallNewConnectionsAreRefused() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class)
                .run(context -> assertShutdownCutsOffABlockedCall(context, false));
    }

    @Test
    void shutdownCutsOffACallStillRunningAfterTheShutdownPhaseTimeout() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class)
                .withPropertyValues("spring.lifecycle.timeout-per-shutdown-phase=300ms")
                .run(context -> {
                    CalculatorHandler handler = context.getBean(CalculatorHandler.class);
                    try (ThriftClient client = clientOf(context)) {
                        Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
                        CompletableFuture<Integer> slowCall =
                                CompletableFuture.supplyAsync(() -> addSlowly(calculator, 20_000));
                        await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.get() == 1);
                        long start = System.nanoTime();

                        context.close();

                        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
                        assertThatThrownBy(() -> slowCall.get(10, TimeUnit.SECONDS))
                                .hasCauseInstanceOf(ThriftTransportFailureException.class);
                        assertThat(handler.slowCallsFinished).hasValue(0);
                    }
                });
    }

    @Test
    void serverShutdownImmediateCutsOffACallInFlightAtOnce() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class)
                .withPropertyValues("server.shutdown=immediate")
                .run(context -> assertShutdownCutsOffABlockedCall(context, true));
    }

    @Test
    void thriftShutdownImmediateCutsOffACallInFlightAtOnce() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class)
                .withPropertyValues("grizzly.thrift.server.shutdown=immediate")
                .run(context -> assertShutdownCutsOffABlockedCall(context, true));
    }

    @Test
    void thriftShutdownGracefulWinsOverServerShutdownImmediate() {
        runner.withUserConfiguration(CalculatorHandlerConfiguration.class)
                .withPropertyValues("server.shutdown=immediate", "grizzly.thrift.server.shutdown=graceful")
                .run(context -> assertShutdownCutsOffABlockedCall(context, false));
    }

    /**
     * Closes the context while a call blocks in its handler (the shutdown-phase timeout is the default
     * 30 s). Cut off: the close returns at once and the call fails. Otherwise new connections are
     * refused while the close waits until the handler is released and the call replies. The blocked
     * call and the close run on threads of their own: on 2 cores the common pool has a single worker
     * (JDK 25 uses it even then), which the blocked call would hold, and the close would wait behind it.
     */
    private static void assertShutdownCutsOffABlockedCall(AssertableApplicationContext context, boolean cutOff)
            throws Exception {
        CalculatorHandler handler = context.getBean(CalculatorHandler.class);
        int port = port(context);
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (ThriftClient client = clientOf(context)) {
            Calculator.Iface calculator = client.proxy(Calculator.Iface.class);
            CompletableFuture<Integer> blockedCall = CompletableFuture.supplyAsync(() -> addBlocked(calculator), threads);
            await().atMost(Duration.ofSeconds(5)).until(() -> handler.calls.get() == 1);

            CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close, threads);

            if (cutOff) {
                closing.get(10, TimeUnit.SECONDS);
                assertThatThrownBy(() -> blockedCall.get(10, TimeUnit.SECONDS))
                        .hasCauseInstanceOf(ThriftTransportFailureException.class);
                assertThat(handler.slowCallsFinished).hasValue(0);
            } else {
                await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThatThrownBy(
                        () -> new Socket(InetAddress.getLoopbackAddress(), port).close()).isInstanceOf(ConnectException.class));
                assertThat(closing).isNotDone();
                handler.release();
                assertThat(blockedCall.get(10, TimeUnit.SECONDS)).isZero();
                closing.get(10, TimeUnit.SECONDS);
            }
        } finally {
            handler.release();
            threads.shutdownNow();
        }
    }

    @Test
    void aPortInUseFailsTheStartNamingTheAddressAndLeavesNoThreads() throws IOException {
        // Other servers may run in this JVM: a cached @SpringBootTest context keeps its server until the end.
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            runner.withUserConfiguration(CalculatorHandlerConfiguration.class)
                    .withPropertyValues("grizzly.thrift.server.port=" + taken.getLocalPort())
                    .run(context -> assertThat(context).hasFailed().getFailure()
                            .hasStackTraceContaining("cannot bind Thrift server to 127.0.0.1:" + taken.getLocalPort())
                            .hasRootCauseInstanceOf(BindException.class));
            // The failed start must not leave selector, worker or idle-check threads behind.
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(Thread.getAllStackTraces().keySet())
                    .filteredOn(thread -> !before.contains(thread))
                    .extracting(Thread::getName).noneMatch(name -> name.startsWith("grizzlyboot-thrift")));
        }
    }

    static ThriftClient clientOf(AssertableApplicationContext context) {
        return ThriftClient.builder().server("127.0.0.1", port(context)).readTimeout(Duration.ofSeconds(30)).build();
    }

    static int port(ConfigurableApplicationContext context) {
        return context.getEnvironment().getRequiredProperty(ThriftServerLifecycle.PORT_PROPERTY, Integer.class);
    }

    private static int addBlocked(Calculator.Iface calculator) {
        try {
            return calculator.add(CalculatorHandler.BLOCK, 0);
        } catch (TException e) {
            throw new CompletionException(e);
        }
    }

    private static int addSlowly(Calculator.Iface calculator, int millis) {
        try {
            return calculator.add(CalculatorHandler.SLEEP, millis);
        } catch (TException e) {
            throw new CompletionException(e);
        }
    }


    @Configuration(proxyBeanMethods = false)
    static class SecondCalculatorConfiguration {
        @Bean
        @ThriftService
        Calculator.Iface secondCalculator() {
            return new CalculatorHandler();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class SharedConfiguration {
        @Bean
        @ThriftService("shared")
        SharedService.Iface sharedHandler() {
            return key -> new SharedStruct(key, "shared " + key);
        }
    }
}
