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
 */
public final class KHopTraversal implements Session.ValueVisitor {
    private final Session session;
    private LongHashSet frontier = new LongHashSet();
    private LongHashSet next = new LongHashSet();
    private long[] hopKeys = new long[64];
    private int fanout;
    private long gets;

    private final boolean batched;

    /** A traversal that reads each hop as one batch of GETs. */
    public KHopTraversal(Session session) {
        this(session, true);
    }

    /**
     * @param batched true: each hop's GETs go out as one batch (two round trips a hop); false: one GET at a time,
     *                waiting for each, as the paper's traversal engine reads (its evaluation's model)
     */
    public KHopTraversal(Session session, boolean batched) {
        this.session = session;
        this.batched = batched;
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
                session.getAll(hopKeys, 0, n, this);
            } else {
                for (int i = 0; i < n; i++) {
                    visit(i, hopKeys[i], session.get(hopKeys[i]));
                }
            }
            gets += n;
            LongHashSet t = frontier;
            frontier = next;
            next = t;
        }
        return frontier;
    }

    /** One adjacency of the current hop: its first {@code fanout} neighbours join the next frontier. */
    @Override
    public void visit(int index, long key, ValueView adjacency) {
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
