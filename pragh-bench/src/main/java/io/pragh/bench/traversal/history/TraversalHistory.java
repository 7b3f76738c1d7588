package io.pragh.bench.traversal.history;

import io.pragh.bench.extension.CappedAppend;
import io.pragh.bench.traversal.deploy.PathRecorder;
import io.pragh.linearizability.CheckReport;
import io.pragh.linearizability.History;
import io.pragh.linearizability.LinearizabilityChecker;
import io.pragh.linearizability.Operation;
import io.pragh.store.ValueView;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * One mode's history of a sample of keys: every query thread records, through its own {@link PathRecorder}, the
 * GETs its two-hop queries made of sampled keys (the digest of the value the query read, not a re-read) and its edge
 * inserts into them, each with its invocation and response time; after the run, with the threads stopped,
 * {@link #check} checks each key's history for linearizability from the value the loader PUT, with migrations and
 * read replicas having run under it.
 *
 * <p>Memory stays bounded: a GET costs an operation and a {@value AdjacencyDigest#BYTES}-byte digest, and past
 * {@code maxReads} sampled GETs the rest are counted, not recorded (leaving a read out of a history can only hide a
 * violation that read would show, never make one up). Inserts are always recorded: leaving one out could make a later read
 * look impossible.
 *
 * <pre>{@code
 * TraversalHistory history = new TraversalHistory(KeySample.of(1024, population), 1024, loadedValueOf,
 *     TraversalHistory.DEFAULT_MAX_READS);
 * history.loaded();                            // after the load returned, before the first query
 * try (QueryPath p = cluster.openPath(history.recorder())) { p.kHop(start, 0, 2, 100, false); }
 * HistoryCheck result = history.check();       // once every query thread stopped
 * }</pre>
 */
public final class TraversalHistory {
    /** Sampled GETs recorded at most per mode: about 100 bytes each. */
    public static final long DEFAULT_MAX_READS = 2_000_000;
    /** Memoized states one key's search may hold before it gives up undecided. */
    static final int MAX_STATES = LinearizabilityChecker.DEFAULT_MAX_STATES;
    /** The client the loader's PUTs are recorded as. */
    static final int LOADER = -1;

    private final KeySample sample;
    private final long sampledKeys;
    private final LongFunction<byte[]> loadedValue;
    private final History history = new History();
    /** Every operation drained from the threads' logs so far. */
    private final List<Operation> recorded = new ArrayList<>();
    private final AtomicLong readsLeft;
    private final AtomicLong readsNotRecorded = new AtomicLong();
    private final AtomicInteger recorders = new AtomicInteger();
    /** When the load had returned: every loader PUT was answered by then, no query had started. */
    private volatile long loadedAt = Long.MIN_VALUE;

    /**
     * @param sample      which keys are recorded
     * @param sampledKeys how many of the workload's keys the sample holds (for the report)
     * @param loadedValue the value the loader PUT under a key, or null when it put none
     * @param maxReads    sampled GETs recorded at most
     */
    public TraversalHistory(KeySample sample, long sampledKeys, LongFunction<byte[]> loadedValue, long maxReads) {
        if (maxReads < 0) {
            throw new IllegalArgumentException("maxReads must be >= 0, got " + maxReads);
        }
        this.sample = sample;
        this.sampledKeys = sampledKeys;
        this.loadedValue = loadedValue;
        this.readsLeft = new AtomicLong(maxReads);
    }

    /** Marks the end of the load: call after every loader PUT returned and before the first query. */
    public void loaded() {
        loadedAt = System.nanoTime();
    }

    /** A recorder for one query thread (not thread-safe: that thread's only). */
    public PathRecorder recorder() {
        return new Recorder(history.recorder(recorders.getAndIncrement()), true);
    }

    /**
     * A recorder whose reads are recorded whatever is left of the budget: for a test that plants operations into the
     * history once the query threads stopped ({@code TraversalRunner}'s {@code beforeCheck}). On a fast host the
     * queries can spend the whole budget, and a planted read counted past it would leave nothing to report.
     */
    public PathRecorder plantingRecorder() {
        return new Recorder(history.recorder(recorders.getAndIncrement()), false);
    }

    /**
     * Checks every recorded key's history, each starting with the loader's PUT of its value. Call once the query
     * threads stopped: an operation still running could be missing while a read of its effect is not. A later
     * call checks everything recorded until then.
     */
    public synchronized HistoryCheck check() {
        long t0 = System.nanoTime();
        long at = loadedAt;
        if (at == Long.MIN_VALUE) {
            throw new IllegalStateException("the history's load was never marked (loaded())");
        }
        recorded.addAll(history.drain());
        Set<Long> keys = new HashSet<>();
        Set<Long> inserted = new HashSet<>();
        Set<Integer> clients = new HashSet<>();
        long reads = 0;
        long inserts = 0;
        for (Operation op : recorded) {
            keys.add(op.key());
            clients.add(op.client());
            if (op.kind() == Operation.Kind.GET) {
                reads++;
            } else {
                inserts++;
                inserted.add(op.key());
            }
        }
        List<Operation> all = new ArrayList<>(recorded.size() + keys.size());
        for (long key : keys) {
            byte[] loaded = loadedValue.apply(key);
            if (loaded != null) {
                all.add(Operation.put(LOADER, key, AdjacencyDigest.of(loaded).encode(), at, at));
            }
        }
        all.addAll(recorded);
        CheckReport report = new LinearizabilityChecker<>(AdjacencyModel.INSTANCE, MAX_STATES).check(all, true);
        return new HistoryCheck(sampledKeys, keys.size(), inserted.size(), reads, inserts, readsNotRecorded.get(), clients.size(),
            report.violations().size(), report.linearizable() ? null : report.violations().get(0).key(),
            report.linearizable() ? null : report.describe(AdjacencyModel::describe, 1), report.undecidedKeys(),
            (System.nanoTime() - t0) / 1e9);
    }

    /** One query thread's recorder: what its query path read and inserted of sampled keys. */
    private final class Recorder implements PathRecorder {
        private final History.Recorder log;

        private final boolean budgeted;

        Recorder(History.Recorder log, boolean budgeted) {
            this.log = log;
            this.budgeted = budgeted;
        }

        @Override
        public boolean observes(long key) {
            return sample.observes(key);
        }

        @Override
        public void read(long key, ValueView value, long invokedNanos, long answeredNanos) {
            if (budgeted && readsLeft.getAndDecrement() <= 0) {
                readsNotRecorded.incrementAndGet();
                return;
            }
            log.get(key, value == null ? null : AdjacencyDigest.of(value).encode(), invokedNanos, answeredNanos);
        }

        @Override
        public void inserted(long key, long neighbour, int cap, long invokedNanos, long answeredNanos) {
            log.append(key, CappedAppend.argument(neighbour, cap), invokedNanos, answeredNanos);
        }
    }
}
