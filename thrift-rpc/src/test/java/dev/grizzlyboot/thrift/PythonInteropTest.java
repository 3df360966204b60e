package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.grizzlyboot.testsupport.ProcessOutput;
import dev.grizzlyboot.testsupport.Python;
import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.server.IoStrategy;
import dev.grizzlyboot.thrift.server.ThriftServer;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import dev.grizzlyboot.thrift.tutorial.InvalidOperation;
import dev.grizzlyboot.thrift.tutorial.Operation;
import dev.grizzlyboot.thrift.tutorial.Work;
import dev.grizzlyboot.thrift.tutorial.shared.SharedStruct;
import org.apache.thrift.TMultiplexedProcessor;
import org.apache.thrift.TProcessor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Thrift's Python library as a second implementation (src/test/python/thrift_oracle.py, code for
 * the IDL in src/test/generated-py): its framed socket client calls our server with every IO
 * strategy, with both protocols and with a multiplexed processor, checking every answer (int32 edges and
 * random operands, the declared exception, every payload size to 300 bytes and powers of two to
 * 4 MiB, one-way calls, six connections at once, a frame one byte over our limit); and our pooled
 * client calls its threaded server the same way. Needs {@code python3} with the {@code thrift}
 * package; without it the tests fail and say how to install it.
 */
class PythonInteropTest {

    private static final Path SCRIPT = Path.of("src/test/python/thrift_oracle.py").toAbsolutePath();
    private static final int MAX_FRAME = 6 * 1024 * 1024;
    private static final int ZIP_COUNT_KEY = Integer.MIN_VALUE;
    private static String python;

    @BeforeAll
    static void findPythonWithThrift() {
        python = Python.withModules("These tests check our Thrift transport against Thrift's Python library, which is "
                + "missing: install it with 'sudo apt-get install -y python3-thrift' (Debian/Ubuntu; .ci/run does) "
                + "or 'pip install thrift' for the python3 on the PATH", "thrift");
    }

    /** Every strategy reads frames its own way; the protocols differ only inside libthrift, so compact once. */
    static Stream<Arguments> strategiesAndProtocols() {
        return Stream.concat(Stream.of(IoStrategy.values()).map(strategy -> Arguments.of(strategy, ThriftProtocol.BINARY)),
                Stream.of(Arguments.of(IoStrategy.CONNECTION_READER, ThriftProtocol.COMPACT)));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("strategiesAndProtocols")
    void pythonClientCallsOurServer(IoStrategy strategy, ThriftProtocol protocol) throws Exception {
        pythonClientCalls(strategy, protocol, null);
    }

    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void pythonClientCallsOurMultiplexedServer(ThriftProtocol protocol) throws Exception {
        pythonClientCalls(IoStrategy.CONNECTION_READER, protocol, "Calculator");
    }

    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void ourClientCallsPythonServer(ThriftProtocol protocol) throws Exception {
        ourClientCalls(protocol, null);
    }

    @ParameterizedTest
    @EnumSource(ThriftProtocol.class)
    void ourClientCallsPythonMultiplexedServer(ThriftProtocol protocol) throws Exception {
        ourClientCalls(protocol, "Calculator");
    }

    private static void pythonClientCalls(IoStrategy strategy, ThriftProtocol protocol, String service) throws Exception {
        CalculatorHandler handler = new CalculatorHandler();
        TProcessor processor = new Calculator.Processor<>(handler);
        if (service != null) {
            TMultiplexedProcessor multiplexed = new TMultiplexedProcessor();
            multiplexed.registerProcessor(service, processor);
            processor = multiplexed;
        }
        try (ThriftServer server = ThriftServer.builder(processor).host("127.0.0.1").port(0).ioStrategy(strategy)
                .protocol(protocol).maxFrameSize(MAX_FRAME).build().start()) {
            List<String> command = new ArrayList<>(List.of(python, SCRIPT.toString(), "client", String.valueOf(server.port()),
                    name(protocol), String.valueOf(MAX_FRAME)));
            if (service != null) {
                command.add(service);
            }
            Process client = new ProcessBuilder(command).redirectErrorStream(true).start();
            CompletableFuture<String> output = ProcessOutput.readInBackground(client.getInputStream());
            assertThat(client.waitFor(3, TimeUnit.MINUTES)).as("the Python client ended").isTrue();
            String printed = output.get(10, TimeUnit.SECONDS);
            assertThat(client.exitValue()).as(printed).isZero();
            assertThat(printed).contains("ok {").contains("\"oversized\": 1").contains("\"threads\": 6");
            await().atMost(Duration.ofSeconds(5)).until(() -> handler.zips.get() == 25);
        }
    }

    private static void ourClientCalls(ThriftProtocol protocol, String service) throws Exception {
        List<String> command = new ArrayList<>(List.of(python, SCRIPT.toString(), "server", name(protocol)));
        if (service != null) {
            command.add(service);
        }
        Process server = new ProcessBuilder(command).redirectErrorStream(true).start();
        // Closed by the process's end, not here: the reading thread holds the reader's lock while it reads.
        BufferedReader lines = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> log = CompletableFuture.completedFuture("");
        try {
            String first = lines.readLine();
            assertThat(first).as("the Python server's first line").startsWith("port ");
            log = ProcessOutput.readInBackground(lines);
            int port = Integer.parseInt(first.substring("port ".length()).trim());
            try (ThriftClient client = ThriftClient.builder().server("127.0.0.1", port).protocol(protocol)
                    .maxConnections(8).maxFrameSize(MAX_FRAME).readTimeout(Duration.ofSeconds(30)).build()) {
                Calculator.Iface calculator = service == null ? client.proxy(Calculator.Iface.class)
                        : client.proxyBuilder(Calculator.Iface.class).serviceName(service).build();
                callEveryMethod(calculator);
                callFromManyThreads(calculator);
            }
        } finally {
            server.destroyForcibly();
            server.waitFor(10, TimeUnit.SECONDS);
            System.err.print(log.get(10, TimeUnit.SECONDS));
        }
    }

    private static void callEveryMethod(Calculator.Iface calculator) throws Exception {
        Random random = new Random(20261128);
        calculator.ping();
        int[] edges = {0, 1, -1, 2, 41, Integer.MAX_VALUE, Integer.MIN_VALUE, 1 << 30, -(1 << 30) - 7};
        for (int a : edges) {
            for (int b : edges) {
                assertThat(calculator.add(a, b)).as("add(%d, %d)", a, b).isEqualTo(a + b);
                assertThat(calculator.calculate(3, new Work(a, b, Operation.MULTIPLY).setComment("from Java")))
                        .isEqualTo(a * b);
                if (b != 0 && !(a == Integer.MIN_VALUE && b == -1)) {
                    assertThat(calculator.calculate(3, new Work(a, b, Operation.DIVIDE))).as("%d / %d", a, b).isEqualTo(a / b);
                }
            }
        }
        assertThatThrownBy(() -> calculator.calculate(1, new Work(1, 0, Operation.DIVIDE)))
                .isInstanceOfSatisfying(InvalidOperation.class, e -> {
                    assertThat(e.getWhatOp()).isEqualTo(Operation.DIVIDE.getValue());
                    assertThat(e.getWhy()).isEqualTo("Cannot divide by 0");
                });
        for (int i = 0; i < 50; i++) {
            int key = random.nextInt(Integer.MAX_VALUE) - random.nextInt(Integer.MAX_VALUE);
            assertThat(calculator.getStruct(key)).isEqualTo(new SharedStruct(key, "value " + key));
        }
        for (int size : payloadSizes(random)) {
            byte[] payload = new byte[size];
            random.nextBytes(payload);
            assertThat(calculator.echo(ByteBuffer.wrap(payload))).as("echo of %d bytes", size).isEqualTo(ByteBuffer.wrap(payload));
        }
        for (int i = 0; i < 25; i++) {
            calculator.zip();
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> calculator.getStruct(ZIP_COUNT_KEY).getValue().equals("zips 25"));
    }

    /** Every size to 300 bytes, each power of two and its neighbours up to 4 MiB, and random sizes. */
    private static List<Integer> payloadSizes(Random random) {
        List<Integer> sizes = new ArrayList<>();
        for (int size = 0; size <= 300; size++) {
            sizes.add(size);
        }
        for (int power = 512; power <= 4 * 1024 * 1024; power *= 2) {
            sizes.addAll(List.of(power - 1, power, power + 1));
        }
        for (int i = 0; i < 10; i++) {
            sizes.add(random.nextInt(2 * 1024 * 1024));
        }
        return sizes;
    }

    /** Eight threads share the proxy, so the pool opens several connections to the Python server. */
    private static void callFromManyThreads(Calculator.Iface calculator) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int seed = t;
                running.add(threads.submit(() -> {
                    Random random = new Random(seed);
                    for (int i = 0; i < 150; i++) {
                        byte[] payload = new byte[random.nextInt(20_000)];
                        random.nextBytes(payload);
                        assertThat(calculator.echo(ByteBuffer.wrap(payload))).isEqualTo(ByteBuffer.wrap(payload));
                        assertThat(calculator.add(seed, i)).isEqualTo(seed + i);
                    }
                    return null;
                }));
            }
            for (Future<?> call : running) {
                call.get(2, TimeUnit.MINUTES);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    private static String name(ThriftProtocol protocol) {
        return protocol.name().toLowerCase(Locale.ROOT);
    }
}
