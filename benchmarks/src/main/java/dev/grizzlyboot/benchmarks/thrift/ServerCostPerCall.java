package dev.grizzlyboot.benchmarks.thrift;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.grizzlyboot.thrift.ThriftProtocol;
import dev.grizzlyboot.thrift.tutorial.Calculator;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.layered.TFramedTransport;

/**
 * Our server's own cost per call: the heap bytes allocated and the CPU time used by its selector
 * and worker threads (named {@code grizzlyboot-thrift-*}), divided by the calls that TSocket
 * clients made. Unlike the process CPU of {@link ThriftBenchmark} it leaves out the callers, and
 * allocation does not move with other load on the machine, so two builds compare on a busy
 * machine too. Arguments, all optional: {@code --server=GRIZZLY_CONNECTION_QUEUE --protocol=binary
 * --payload=300 --connections=4 --calls=200000 --runs=3}.
 */
public final class ServerCostPerCall {
    private static final String SERVER_THREADS = "grizzlyboot-thrift-";

    private ServerCostPerCall() {
    }

    public static void main(String[] args) throws Exception {
        var options = ThriftBenchmark.options(args);
        BenchServer server = BenchServer.valueOf(options.getOrDefault("server", "GRIZZLY_CONNECTION_QUEUE"));
        ThriftProtocol protocol = ThriftProtocol.valueOf(options.getOrDefault("protocol", "binary").toUpperCase(Locale.ROOT));
        int payload = Integer.parseInt(options.getOrDefault("payload", "300"));
        int connections = Integer.parseInt(options.getOrDefault("connections", "4"));
        int calls = Integer.parseInt(options.getOrDefault("calls", "200000"));
        int runs = Integer.parseInt(options.getOrDefault("runs", "3"));
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (BenchServer.Running running = server.start(protocol, null)) {
            ExecutorService callers = Executors.newFixedThreadPool(connections);
            try {
                drive(callers, running.port(), protocol, payload, connections, calls / 4);
                for (int run = 1; run <= runs; run++) {
                    long[] before = serverThreadTotals(threads);
                    drive(callers, running.port(), protocol, payload, connections, calls);
                    long[] after = serverThreadTotals(threads);
                    System.out.printf(Locale.ROOT, "%s %s %d B %d conns run %d: %.0f bytes/call, %.2f µs server CPU/call%n",
                            server.label, protocol, payload, connections, run,
                            (after[0] - before[0]) / (double) calls, (after[1] - before[1]) / 1000.0 / calls);
                }
            } finally {
                callers.shutdownNow();
            }
        }
    }

    private static void drive(ExecutorService callers, int port, ThriftProtocol protocol, int payload,
                              int connections, int calls) throws Exception {
        List<Callable<Void>> loops = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            int mine = calls / connections + (c < calls % connections ? 1 : 0);
            loops.add(() -> {
                try (TTransport transport = new TFramedTransport(new TSocket("127.0.0.1", port, 10_000))) {
                    transport.open();
                    Calculator.Client client = new Calculator.Client(protocol.factory().getProtocol(transport));
                    ByteBuffer bytes = ByteBuffer.wrap(new byte[payload]);
                    for (int i = 0; i < mine; i++) {
                        client.echo(bytes.duplicate());
                    }
                }
                return null;
            });
        }
        for (Future<Void> loop : callers.invokeAll(loops)) {
            loop.get();
        }
    }

    /** Allocated bytes and CPU nanoseconds of the server's live threads. */
    private static long[] serverThreadTotals(com.sun.management.ThreadMXBean threads) {
        long bytes = 0;
        long cpu = 0;
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().startsWith(SERVER_THREADS)) {
                bytes += threads.getThreadAllocatedBytes(thread.getId());
                cpu += threads.getThreadCpuTime(thread.getId());
            }
        }
        return new long[] {bytes, cpu};
    }
}
