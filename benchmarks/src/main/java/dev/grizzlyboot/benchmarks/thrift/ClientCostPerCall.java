package dev.grizzlyboot.benchmarks.thrift;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import dev.grizzlyboot.thrift.ThriftProtocol;
import dev.grizzlyboot.thrift.tutorial.Calculator;

/**
 * A client's own cost per call: the heap bytes allocated, the CPU time (user, and user plus
 * system) and the voluntary context switches (sleeps) of the calling threads, for libthrift's
 * TSocket client and our pooled client against the same server, one after the other in one
 * process. Allocation does not move with other load
 * on the machine and user CPU moves little, so two builds of the client compare on a busy
 * machine too, where throughput and process CPU do not. Arguments, all optional:
 * {@code --server=THREAD_POOL --clients=TSOCKET,GRIZZLY --protocols=binary,compact --payload=300
 * --connections=4 --calls=200000 --runs=3}.
 */
public final class ClientCostPerCall {

    private ClientCostPerCall() {
    }

    public static void main(String[] args) throws Exception {
        var options = ThriftBenchmark.options(args);
        BenchServer server = BenchServer.valueOf(options.getOrDefault("server", "THREAD_POOL"));
        List<BenchClient> clients = new ArrayList<>();
        for (String name : options.getOrDefault("clients", "TSOCKET,GRIZZLY").split(",")) {
            clients.add(BenchClient.valueOf(name));
        }
        int payload = Integer.parseInt(options.getOrDefault("payload", "300"));
        int connections = Integer.parseInt(options.getOrDefault("connections", "4"));
        int calls = Integer.parseInt(options.getOrDefault("calls", "200000"));
        int runs = Integer.parseInt(options.getOrDefault("runs", "3"));
        ExecutorService callers = Executors.newFixedThreadPool(connections);
        try {
            for (String name : options.getOrDefault("protocols", "binary,compact").split(",")) {
                ThriftProtocol protocol = ThriftProtocol.valueOf(name.toUpperCase(Locale.ROOT));
                try (BenchServer.Running running = server.start(protocol, null)) {
                    for (BenchClient client : clients) {
                        try (BenchClient.Session session = client.open(running.port(), connections, protocol, null)) {
                            drive(callers, session, payload, calls / 4);
                            for (int run = 1; run <= runs; run++) {
                                long[] cost = drive(callers, session, payload, calls);
                                System.out.printf(Locale.ROOT,
                                        "%s | %s | %s | %d B | %d conns | run %d | %.0f bytes/call | %.2f µs user CPU/call"
                                                + " | %.2f µs CPU/call | %.2f sleeps/call%n",
                                        client.label, server.label, protocol, payload, connections, run,
                                        cost[0] / (double) calls, cost[1] / 1000.0 / calls, cost[2] / 1000.0 / calls,
                                        cost[3] / (double) calls);
                            }
                        }
                    }
                }
            }
        } finally {
            callers.shutdownNow();
        }
    }

    /**
     * Runs {@code calls} calls spread over the session's callers; returns their threads' allocated
     * bytes, user and total CPU nanoseconds, and voluntary context switches.
     */
    private static long[] drive(ExecutorService callers, BenchClient.Session session, int payload, int calls)
            throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<Callable<long[]>> loops = new ArrayList<>();
        int connections = session.callers().size();
        for (int c = 0; c < connections; c++) {
            Calculator.Iface caller = session.callers().get(c);
            int mine = calls / connections + (c < calls % connections ? 1 : 0);
            loops.add(() -> {
                ByteBuffer bytes = ByteBuffer.wrap(new byte[payload]);
                long id = Thread.currentThread().getId();
                long allocated = threads.getThreadAllocatedBytes(id);
                long user = threads.getCurrentThreadUserTime();
                long cpu = threads.getCurrentThreadCpuTime();
                long sleeps = voluntaryContextSwitches();
                for (int i = 0; i < mine; i++) {
                    caller.echo(bytes.duplicate());
                }
                return new long[] {threads.getThreadAllocatedBytes(id) - allocated,
                        threads.getCurrentThreadUserTime() - user, threads.getCurrentThreadCpuTime() - cpu,
                        voluntaryContextSwitches() - sleeps};
            });
        }
        long[] total = new long[4];
        for (Future<long[]> loop : callers.invokeAll(loops)) {
            long[] cost = loop.get();
            for (int i = 0; i < total.length; i++) {
                total[i] += cost[i];
            }
        }
        return total;
    }

    /** The calling thread's voluntary context switches so far (Linux; 0 where /proc has none). */
    private static long voluntaryContextSwitches() throws IOException {
        Path status = Path.of("/proc/thread-self/status");
        if (!Files.exists(status)) {
            return 0;
        }
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("voluntary_ctxt_switches:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        return 0;
    }
}
