package dev.grizzlyboot.benchmarks.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The child JVM's answers, as {@link ContenderProtocol#serve} writes them, read back by the harness side. */
class ContenderProtocolTest {

    private static final LoadRound.Result ROUND =
            new LoadRound.Result(1234.5, 246900.0, 81.25, 950.0, 0.42, 0.31, 0.97, 3, 7, "java.io.IOException: a\tb\nc",
                    120);
    private static final SeedWorkload.Result SINGLES = new SeedWorkload.Result(14.6, 13687.0, 4.06);
    private static final SeedWorkload.Result BULK = new SeedWorkload.Result(0.21, 945141.0, 0.09);
    private static final FailoverLoad.Trace TRACE =
            new FailoverLoad.Trace(new long[] {10, 20, 30}, new long[] {0, 5, 0}, new long[] {0, 1, 2}, 950.0, 2000.0, null);

    private final List<String> received = new ArrayList<>();

    @Test
    void cellRoundsArriveInOrderWithEveryField() {
        List<String> answer = serve(ContenderProtocol.cell(Workload.GET_MULTI, 128, 64, Duration.ofMillis(250),
                Duration.ofSeconds(8), 2, Duration.ofMillis(400)));

        assertThat(received).containsExactly("cell getMulti 128 64 PT0.25S PT8S 2 PT0.4S");
        List<LoadRound.Result> rounds = ContenderProtocol.rounds(answer);
        assertThat(rounds).hasSize(2);
        assertThat(rounds.get(0)).usingRecursiveComparison().ignoringFields("firstError").isEqualTo(ROUND);
        assertThat(rounds.get(0).firstError()).isEqualTo("java.io.IOException: a b c");
    }

    @Test
    void seedRunsAreSplitIntoSinglesAndBulk() {
        List<String> answer = serve(ContenderProtocol.seed(100_000, 1000, 1, 3));

        assertThat(received).containsExactly("seed 100000 1000 1 3");
        assertThat(ContenderProtocol.seedRuns(answer, "singles")).containsExactly(SINGLES);
        assertThat(ContenderProtocol.seedRuns(answer, "bulk")).containsExactly(BULK, BULK, BULK);
    }

    @Test
    void failoverAnswersStartedThenEveryBucket() {
        List<String> answer = serve(ContenderProtocol.failover(128, Duration.ofSeconds(8)));

        assertThat(received).containsExactly("failover 128 PT8S");
        assertThat(answer.get(1)).isEqualTo("started");
        FailoverLoad.Trace trace = ContenderProtocol.trace(answer.subList(2, answer.size()));
        assertThat(trace.calls()).containsExactly(TRACE.calls());
        assertThat(trace.errors()).containsExactly(TRACE.errors());
        assertThat(trace.misses()).containsExactly(TRACE.misses());
        assertThat(trace.p99Micros()).isEqualTo(950.0);
        assertThat(trace.maxMicros()).isEqualTo(2000.0);
        assertThat(trace.firstError()).isNull();
    }

    @Test
    void aFailingCommandAnswersOneErrorLineAndTheChildServesTheNext() {
        List<String> answer = serve("populate\tnot-a-number", ContenderProtocol.populate(new int[] {32, 128}));

        assertThat(answer).hasSize(3);
        assertThat(answer.get(1)).startsWith("error\tjava.lang.NumberFormatException");
        assertThat(answer.get(2)).isEqualTo("ok");
        assertThat(received).containsExactly("populate [32, 128]");
    }

    @Test
    void theReadyLineCarriesLabelAndNote() {
        List<String> answer = serve();

        assertThat(ContenderProtocol.ready(answer.get(0))).containsExactly("stub", "one write per batch");
    }

    /** Serves the commands to a stub contender, then quit; returns every line the child wrote. */
    private List<String> serve(String... commands) {
        String input = String.join("\n", commands) + "\nquit\n";
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            ContenderProtocol.serve(new StubContender(), new BufferedReader(new StringReader(input)), out);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return output.toString(StandardCharsets.UTF_8).lines().toList();
    }

    /** Records what it was asked and answers with the fixed results above. */
    private final class StubContender implements Contender {

        @Override
        public String label() {
            return "stub";
        }

        @Override
        public String bulkWriteNote() {
            return "one write per batch";
        }

        @Override
        public void populate(int[] sizes) {
            received.add("populate " + Arrays.toString(sizes));
        }

        @Override
        public void warmUp(int size, Duration length) {
            received.add("warmup " + size + " " + length);
        }

        @Override
        public List<LoadRound.Result> cell(Workload workload, int size, int threads, Duration warmup,
                                           Duration jitSettle, int rounds, Duration round) {
            received.add("cell " + workload.label + " " + size + " " + threads + " " + warmup + " " + jitSettle + " "
                    + rounds + " " + round);
            return Collections.nCopies(rounds, ROUND);
        }

        @Override
        public SeedRuns seed(int keys, int batch, int singlesRounds, int bulkRounds) {
            received.add("seed " + keys + " " + batch + " " + singlesRounds + " " + bulkRounds);
            return new SeedRuns(Collections.nCopies(singlesRounds, SINGLES),
                    Collections.nCopies(bulkRounds, BULK));
        }

        @Override
        public FailoverLoad.Running failoverLoad(int size, Duration length) {
            received.add("failover " + size + " " + length);
            return new FailoverLoad.Running() {
                @Override
                public long startedNanos() {
                    return 0;
                }

                @Override
                public FailoverLoad.Trace await() {
                    return TRACE;
                }
            };
        }

        @Override
        public void close() {
        }
    }
}
