package io.pragh.chaos;

import io.pragh.embedded.EmbeddedCluster;
import io.pragh.linearizability.History;
import io.pragh.linearizability.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The barrier that ends a {@link ChaosWorkload} window: once every fault is healed, every machine reads every key not
 * already lost, {@code threads} reader threads sharing the keys and retrying what fails for a while (a migration left
 * in doubt by a cut settles in the background); a key still unreadable then is lost. The reads are recorded as the
 * barrier client's, the window's last operations.
 *
 * <pre>{@code
 * List<Operation> reads = new ChaosBarrier(cluster, keys, lost, recorders, 4, tally)
 *     .run(problems, failures, unreadable);
 * }</pre>
 */
final class ChaosBarrier {
    /**
     * How long the barrier keeps retrying a key that a machine could not read before it calls the key lost: far more
     * than a migration left in doubt by a cut, or a durable record whose LOG a cut refused (sent again every second),
     * takes to settle in the background. A GET waits out a pending invalidation for 5 s before it fails; at 2 s
     * patience one such GET called the key lost, and beside a CPU hog a durable record of the restarts case was once
     * still pending after those 5 s. A record that never settles still fails the barrier, after this long.
     */
    private static final long BARRIER_PATIENCE_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final long BARRIER_RETRY_MILLIS = 10;

    private final EmbeddedCluster cluster;
    private final long[] keys;
    /** Keys found lost by an earlier barrier, skipped; this one marks those it finds. */
    private final boolean[] lost;
    private final History.Recorder[] recorders;
    private final int threads;
    private final FailureTally tally;

    ChaosBarrier(EmbeddedCluster cluster, long[] keys, boolean[] lost, History.Recorder[] recorders, int threads,
                 FailureTally tally) {
        this.cluster = cluster;
        this.keys = keys;
        this.lost = lost;
        this.recorders = recorders;
        this.threads = threads;
        this.tally = tally;
    }

    /**
     * Every machine reads every key not already lost, the client threads sharing the keys, retrying what fails for
     * a while (a migration left in doubt by a cut settles in the background); a key still unreadable is lost.
     */
    List<Operation> run(ConcurrentLinkedQueue<String> problems, Map<String, LongAdder> failures, List<Long> unreadable)
        throws InterruptedException {
        List<List<Operation>> reads = new ArrayList<>();
        List<ConcurrentLinkedQueue<Integer>> lostHere = new ArrayList<>();
        List<Thread> readers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int slice = t;
            List<Operation> mine = new ArrayList<>();
            ConcurrentLinkedQueue<Integer> mineLost = new ConcurrentLinkedQueue<>();
            reads.add(mine);
            lostHere.add(mineLost);
            Thread r = new Thread(() -> readSlice(slice, threads, mine, mineLost, problems, failures),
                "chaos-barrier-" + t);
            r.setDaemon(true);
            readers.add(r);
            r.start();
        }
        ChaosWorkload.join(readers, problems);
        List<Operation> all = new ArrayList<>();
        reads.forEach(all::addAll);
        for (ConcurrentLinkedQueue<Integer> q : lostHere) {
            for (int k : q) {
                lost[k] = true;
                unreadable.add(keys[k]);
            }
        }
        unreadable.sort(null);
        return all;
    }

    /** The barrier's reads of every {@code threads}-th key from {@code slice}, on every machine. */
    private void readSlice(int slice, int threads, List<Operation> reads, ConcurrentLinkedQueue<Integer> lostKeys,
                           ConcurrentLinkedQueue<String> problems, Map<String, LongAdder> failures) {
        // The recorder of the client whose slot this thread takes (that client's thread has ended); the reads say
        // they are the barrier's.
        History.Recorder rec = recorders[slice];
        try {
            for (int k = slice; k < keys.length; k += threads) {
                if (lost[k]) {
                    continue;
                }
                long key = keys[k];
                long giveUp = System.nanoTime() + BARRIER_PATIENCE_NANOS;
                boolean keyLost = false;
                // Once one machine cannot read the key, the others are not asked: each could wait out a pending bit.
                for (int m = 0; m < cluster.machineCount() && !keyLost; m++) {
                    RuntimeException last = null;
                    int attempts = 0;
                    do {
                        attempts++;
                        long t0 = System.nanoTime();
                        try {
                            byte[] v = cluster.machine(m).get(key);
                            Operation op = Operation.get(ChaosWorkload.BARRIER_CLIENT, key, v, t0, System.nanoTime());
                            rec.add(op);
                            reads.add(op);
                            last = null;
                        } catch (RuntimeException e) {
                            last = e;
                            tally.count(failures, "barrier GET", e);
                            Thread.sleep(BARRIER_RETRY_MILLIS);
                        }
                    } while (last != null && System.nanoTime() < giveUp);
                    if (last != null) {
                        problems.add("once every fault was healed, machine " + m + " still could not read key " + key
                            + " after " + attempts + " attempt(s): " + last);
                        keyLost = true;
                    }
                }
                if (keyLost) {
                    lostKeys.add(k);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
