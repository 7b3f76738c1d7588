package io.pragh.graph;

import io.pragh.keys.KeyLayout;
import io.pragh.store.Session;
import io.pragh.store.ValueView;
import org.agrona.collections.LongHashSet;

/**
 * A k-hop traversal over adjacency values (packed 8-byte neighbour ids), run by one thread of the start vertex's
 * home machine. Each hop GETs the adjacency of every frontier vertex in one batch (local, cached or remote as the
 * store decides): this is the workload split migration makes local. Reuses its frontier sets across runs.
 *
 * <pre>{@code
 * KHopTraversal t = new KHopTraversal(machine.session());
 * LongHashSet twoHop = t.run(start, label, 2, 100);
 * }</pre>
 *
 * <p>A {@link ReadObserver} sees the values the traversal itself read, for the keys it {@linkplain
 * ReadObserver#observes observes}, with when each GET was invoked and answered: a benchmark records a history of a
 * sample of keys from them and checks it for linearizability. A key it does not observe costs one branch more.
 */
public final class KHopTraversal implements Session.ValueVisitor {
    private final Session session;
    private LongHashSet frontier = new LongHashSet();
    private LongHashSet next = new LongHashSet();
    private long[] hopKeys = new long[64];
    private int fanout;
    private long gets;

    private final boolean batched;
    /** Sees the values read of the keys it observes, or null. */
    private final ReadObserver observer;
    /** When the current hop's batch of GETs was invoked, with an observer. */
    private long batchInvoked;

    /**
     * Sees a traversal's GETs of the keys it observes, on the traversal's thread: the value it read (valid only
     * during the call, null when the key had none), when the GET was invoked and when its value was in hand (both
     * {@link System#nanoTime}). A GET of a batch counts as invoked when its batch was. Not told of other keys.
     *
     * <pre>{@code
     * KHopTraversal t = new KHopTraversal(session, false, new KHopTraversal.ReadObserver() {
     *     public boolean observes(long key) { return (key & 1023) == 0; }
     *     public void read(long key, ValueView v, long invoked, long answered) { history.add(key, v, invoked, answered); }
     * });
     * }</pre>
     */
    public interface ReadObserver {
        /** Whether {@code key}'s reads are observed: asked before every GET, so it must be cheap. */
        boolean observes(long key);

        /** One observed GET's answer. */
        void read(long key, ValueView value, long invokedNanos, long answeredNanos);
    }

    /** A traversal that reads each hop as one batch of GETs. */
    public KHopTraversal(Session session) {
        this(session, true);
    }

    /**
     * @param batched true: each hop's GETs go out as one batch (two round trips a hop); false: one GET at a time,
     *                waiting for each, as the paper's traversal engine reads (its evaluation's model)
     */
    public KHopTraversal(Session session, boolean batched) {
        this(session, batched, null);
    }

    /** A traversal whose GETs of the keys {@code observer} observes it sees (null: none). */
    public KHopTraversal(Session session, boolean batched, ReadObserver observer) {
        this.session = session;
        this.batched = batched;
        this.observer = observer;
    }

    /** GETs issued so far. */
    public long gets() {
        return gets;
    }

    /** The distinct vertices at exactly {@code hops} hops; valid until the next run. */
    public LongHashSet run(long start, int label, int hops, int fanout) {
        if (hops < 0 || fanout < 1) {
            throw new IllegalArgumentException("hops must be >= 0 and fanout >= 1, got " + hops + " and " + fanout);
        }
        frontier.clear();
        frontier.add(start);
        this.fanout = fanout;
        for (int h = 0; h < hops; h++) {
            next.clear();
            if (hopKeys.length < frontier.size()) {
                hopKeys = new long[Integer.highestOneBit(frontier.size()) << 1];
            }
            int n = 0;
            LongHashSet.LongIterator it = frontier.iterator();
            while (it.hasNext()) {
                hopKeys[n++] = KeyLayout.key(it.nextValue(), label, KeyLayout.OUT);
            }
            if (batched) {
                if (observer != null) {
                    batchInvoked = System.nanoTime();
                }
                session.getAll(hopKeys, 0, n, this);
            } else if (observer == null) {
                for (int i = 0; i < n; i++) {
                    follow(session.get(hopKeys[i]));
                }
            } else {
                for (int i = 0; i < n; i++) {
                    long key = hopKeys[i];
                    if (observer.observes(key)) {
                        long invoked = System.nanoTime();
                        ValueView v = session.get(key);
                        observer.read(key, v, invoked, System.nanoTime());
                        follow(v);
                    } else {
                        follow(session.get(key));
                    }
                }
            }
            gets += n;
            LongHashSet t = frontier;
            frontier = next;
            next = t;
        }
        return frontier;
    }

    /** One adjacency of a batched hop: shown to the observer if it observes the key, then followed. */
    @Override
    public void visit(int index, long key, ValueView adjacency) {
        if (observer != null && observer.observes(key)) {
            // Answered by now: the value is in hand. Invoked no later than the batch was.
            observer.read(key, adjacency, batchInvoked, System.nanoTime());
        }
        follow(adjacency);
    }

    /** One adjacency of the current hop: its first {@code fanout} neighbours join the next frontier. */
    private void follow(ValueView adjacency) {
        if (adjacency != null) {
            int n = Math.min(adjacency.longCount(), fanout);
            for (int i = 0; i < n; i++) {
                next.add(adjacency.getLong(i));
            }
        }
    }

    /** All neighbours of one vertex in one direction. */
    public static long[] neighbours(Session session, long vid, int label, int direction) {
        ValueView adj = session.get(KeyLayout.key(vid, label, direction));
        if (adj == null) {
            return new long[0];
        }
        long[] out = new long[adj.longCount()];
        for (int i = 0; i < out.length; i++) {
            out[i] = adj.getLong(i);
        }
        return out;
    }

    public static long[] toArray(LongHashSet set) {
        long[] out = new long[set.size()];
        int i = 0;
        LongHashSet.LongIterator it = set.iterator();
        while (it.hasNext()) {
            out[i++] = it.nextValue();
        }
        return out;
    }

    /** The 8-byte argument of an edge insert or delete. */
    public static byte[] encode(long neighbour) {
        byte[] b = new byte[8];
        new org.agrona.concurrent.UnsafeBuffer(b).putLong(0, neighbour);
        return b;
    }
}
