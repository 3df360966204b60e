package dev.grizzlyboot.benchmarks.memcached;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A contender that runs in its own JVM, for a client that cannot share our classpath (the original
 * grizzly-memcached needs Grizzly 2.3, we use Grizzly 4.0, both in {@code org.glassfish.grizzly}).
 * The child runs the same {@link InProcessContender} code (key spaces, {@link LoadRound},
 * {@link SeedWorkload}) on its own client and reports every round back over
 * {@link ContenderProtocol}; its CPU figures are the child process's own CPU time. The child JVM
 * lives for the whole run, so its client stays connected and JIT-warm like the in-process ones.
 */
final class ChildProcessContender implements Contender {

    private final Process process;
    private final PrintStream commands;
    private final BufferedReader answers;
    private final String label;
    private final String bulkWriteNote;

    /**
     * Starts {@code java -cp classpath mainClass [leadingArgs] prefix servers [timeoutMillis]} with
     * this JVM's {@code java} binary; the main class must serve {@link ContenderProtocol} on
     * stdin/stdout.
     */
    ChildProcessContender(String classpath, String mainClass, List<String> leadingArgs, String prefix,
                          ClientTarget target) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(ServerCpu.childJvmOptions());
        command.addAll(List.of("-cp", classpath, mainClass));
        command.addAll(leadingArgs);
        command.add(prefix);
        command.add(String.join(",", target.servers()));
        target.operationTimeout().ifPresent(timeout -> command.add(Long.toString(timeout.toMillis())));
        process = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        commands = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String[] ready = ContenderProtocol.ready(nextLine());
        label = ready[0];
        bulkWriteNote = ready[1];
    }

    @Override
    public String label() {
        return label;
    }

    @Override
    public String bulkWriteNote() {
        return bulkWriteNote;
    }

    @Override
    public void populate(int[] sizes) throws IOException {
        call(ContenderProtocol.populate(sizes));
    }

    @Override
    public void warmUp(int size, Duration length) throws IOException {
        call(ContenderProtocol.warmUp(size, length));
    }

    @Override
    public List<LoadRound.Result> cell(Workload workload, int size, int threads, Duration warmup, Duration jitSettle,
                                       int rounds, Duration round) throws IOException {
        return ContenderProtocol.rounds(
                call(ContenderProtocol.cell(workload, size, threads, warmup, jitSettle, rounds, round)));
    }

    @Override
    public SeedRuns seed(int keys, int batch, int singlesRounds, int bulkRounds) throws IOException {
        List<String> answer = call(ContenderProtocol.seed(keys, batch, singlesRounds, bulkRounds));
        return new SeedRuns(ContenderProtocol.seedRuns(answer, "singles"), ContenderProtocol.seedRuns(answer, "bulk"));
    }

    /** The load's start is when the child reports it running; the pipe adds well under a bucket's 100 ms. */
    @Override
    public FailoverLoad.Running failoverLoad(int size, Duration length) throws IOException {
        commands.println(ContenderProtocol.failover(size, length));
        List<String> started = answerUntil("started");
        if (!started.isEmpty()) {
            throw new IllegalStateException(label + " (child JVM) did not start the failover load: " + started);
        }
        long start = System.nanoTime();
        return new FailoverLoad.Running() {
            @Override
            public long startedNanos() {
                return start;
            }

            @Override
            public FailoverLoad.Trace await() throws IOException {
                return ContenderProtocol.trace(answerUntil("ok"));
            }
        };
    }

    @Override
    public void close() throws InterruptedException {
        commands.println("quit");
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /** Sends one command and returns the answer's lines before {@code ok}. */
    private List<String> call(String command) throws IOException {
        commands.println(command);
        return answerUntil("ok");
    }

    /** Reads answer lines up to the given one; throws on an {@code error} line. */
    private List<String> answerUntil(String last) throws IOException {
        List<String> lines = new ArrayList<>();
        for (String line = nextLine(); !line.equals(last); line = nextLine()) {
            if (line.startsWith("error\t")) {
                throw new IllegalStateException(label + " (child JVM) failed: " + line.substring(6));
            }
            lines.add(line);
        }
        return lines;
    }

    private String nextLine() throws IOException {
        String line = answers.readLine();
        if (line == null) {
            throw new IllegalStateException("the child JVM ended unexpectedly" + exitStatus());
        }
        return line;
    }

    private String exitStatus() {
        try {
            return process.waitFor(2, TimeUnit.SECONDS) ? " with exit code " + process.exitValue() : "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }
}
