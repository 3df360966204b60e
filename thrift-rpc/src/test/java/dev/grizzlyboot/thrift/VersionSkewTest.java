package dev.grizzlyboot.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.grizzlyboot.thrift.client.ThriftClient;
import dev.grizzlyboot.thrift.tutorial.newer.Calculator;
import org.apache.thrift.TApplicationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A client built from a newer IDL ({@code tutorial_newer.thrift}: two methods more) calls a real
 * server built from the older one: our server in a child JVM, and libthrift's own
 * {@code TThreadPoolServer} (the second implementation, whose UNKNOWN_METHOD behaviour ours
 * follows). The server answers the unknown oneway {@code shout} with an UNKNOWN_METHOD exception
 * that no caller waits for; no later call may take it, or any other call's reply, for its own.
 */
class VersionSkewTest {
    private static final int THREADS = 8;
    private static final int CALLS_PER_THREAD = 300;

    /** The servers of the older IDL that the newer client calls. */
    enum OlderServer {
        OURS_IN_A_CHILD_JVM {
            @Override
            Running start() {
                ServerProcess process = ServerProcess.start();
                return new Running(process.address(), process::close);
            }
        },
        LIBTHRIFT_THREAD_POOL_SERVER {
            @Override
            Running start() throws Exception {
                LibthriftServer server = LibthriftServer.start(
                        new dev.grizzlyboot.thrift.tutorial.Calculator.Processor<>(new CalculatorHandler()),
                        args -> args.protocolFactory(ThriftProtocol.BINARY.factory()).minWorkerThreads(2).maxWorkerThreads(16));
                return new Running("127.0.0.1:" + server.port(), server::close);
            }
        };

        abstract Running start() throws Exception;
    }

    /** A started server: where it listens and how to stop it. */
    record Running(String address, Runnable stopper) {
    }

    private Running server;
    private ThriftClient client;
    private Calculator.Iface calculator;

    private void connect(OlderServer kind) throws Exception {
        server = kind.start();
        // Few connections, so the many calls share them and a stray reply would meet a later call.
        client = ThriftClient.builder().servers(server.address()).maxConnections(2)
                .readTimeout(Duration.ofSeconds(5)).build();
        calculator = client.proxy(Calculator.Iface.class);
    }

    @AfterEach
    void stop() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.stopper().run();
        }
    }

    @ParameterizedTest
    @EnumSource(OlderServer.class)
    void unknownTwoWayMethodFailsWithUnknownMethodAndTheConnectionStaysUsable(OlderServer kind) throws Exception {
        connect(kind);
        assertThatThrownBy(() -> calculator.multiply(6, 7))
                .isInstanceOfSatisfying(TApplicationException.class,
                        e -> assertThat(e.getType()).isEqualTo(TApplicationException.UNKNOWN_METHOD));
        assertThat(calculator.add(6, 7)).isEqualTo(13);
    }

    @ParameterizedTest
    @EnumSource(OlderServer.class)
    void replyToAnUnknownOnewayMethodNeverReachesTheNextCall(OlderServer kind) throws Exception {
        connect(kind);
        for (int i = 0; i < 50; i++) {
            calculator.shout("hello " + i);
            assertThat(calculator.add(i, 1)).isEqualTo(i + 1);
        }
    }

    /**
     * The older server answers each of a long burst of unknown oneway calls with an error that the
     * client reads only at its next two-way call: every one of them is dropped, however many (the
     * client once remembered only the last 64 oneway calls of a connection).
     */
    @ParameterizedTest
    @EnumSource(OlderServer.class)
    void errorsForALongBurstOfUnknownOnewayCallsNeverReachTheNextCall(OlderServer kind) throws Exception {
        connect(kind);
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 300; i++) {
                calculator.shout("burst " + i);
            }
            assertThat(calculator.add(round, 1)).isEqualTo(round + 1);
        }
    }

    @ParameterizedTest
    @EnumSource(OlderServer.class)
    void manyConcurrentCallsEachGetTheirOwnResult(OlderServer kind) throws Exception {
        connect(kind);
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<List<String>>> results = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                results.add(threads.submit(() -> callMixedMethods(thread)));
            }
            List<String> wrong = new ArrayList<>();
            for (Future<List<String>> result : results) {
                wrong.addAll(result.get(2, TimeUnit.MINUTES));
            }
            assertThat(wrong).isEmpty();
        } finally {
            threads.shutdownNow();
        }
    }

    /** Returns a line for every call whose outcome was not its own. */
    private List<String> callMixedMethods(int thread) {
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < CALLS_PER_THREAD; i++) {
            int a = thread * 100_000 + i;
            try {
                switch (i % 4) {
                    case 0 -> calculator.shout("call " + a);
                    case 1 -> calculator.zip();
                    case 2 -> {
                        try {
                            int product = calculator.multiply(a, 2);
                            wrong.add("multiply(" + a + ", 2) returned " + product);
                        } catch (TApplicationException e) {
                            if (e.getType() != TApplicationException.UNKNOWN_METHOD
                                    || !e.getMessage().contains("multiply")) {
                                wrong.add("multiply(" + a + ", 2) failed with " + e);
                            }
                        }
                    }
                    default -> {
                        int sum = calculator.add(a, 3);
                        if (sum != a + 3) {
                            wrong.add("add(" + a + ", 3) returned " + sum);
                        }
                    }
                }
            } catch (Exception e) {
                wrong.add("call " + i + " of thread " + thread + " failed: " + e);
            }
        }
        return wrong;
    }
}
