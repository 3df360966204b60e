package dev.grizzlyboot.benchmarks.memcached;

import java.time.Duration;
import java.util.List;

/**
 * One client in a run, with its own key spaces: either in this JVM ({@link InProcessContender}) or
 * in a child JVM ({@link ChildProcessContender}, for a client whose classpath clashes with ours).
 * Every method blocks until its work is done; one harness thread drives a contender.
 */
interface Contender extends AutoCloseable {

    /** The label in the tables. */
    String label();

    /** How bulk writes are carried out, for the table notes. */
    String bulkWriteNote();

    /** Stores every key of one key space per value size, so that every get hits. */
    void populate(int[] sizes) throws Exception;

    /** JIT warm-up: runs every workload for the given time at 16 threads on the given size's keys. */
    void warmUp(int size, Duration length) throws Exception;

    /**
     * One cell: an unmeasured warm-up of {@code warmup} and then until the JIT compilers are quiet
     * (for at most {@code jitSettle} more), then the measured rounds, in order.
     */
    List<LoadRound.Result> cell(Workload workload, int size, int threads, Duration warmup, Duration jitSettle,
                                int rounds, Duration round) throws Exception;

    /** The seed workload: {@code singlesRounds} runs of looped singles, then {@code bulkRounds} runs of bulk calls. */
    SeedRuns seed(int keys, int batch, int singlesRounds, int bulkRounds) throws Exception;

    /**
     * Starts the load of a failover run on the given size's keys ({@link FailoverLoad}) and returns
     * once it runs, so that the caller can kill and restart a server meanwhile.
     */
    FailoverLoad.Running failoverLoad(int size, Duration length) throws Exception;

    /** The runs of the seed workload, in the order they ran. */
    record SeedRuns(List<SeedWorkload.Result> singles, List<SeedWorkload.Result> bulk) {
    }
}
