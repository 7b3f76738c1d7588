package io.pragh.bench.traversal;

import io.pragh.address.Address;
import io.pragh.keys.KeyLayout;
import io.pragh.monitor.Monitor;
import io.pragh.store.Session;
import io.pragh.store.ValueView;
import org.agrona.collections.LongHashSet;

/**
 * One thread's two-hop query: GET the start vertex's out-list, then the out-list of each of its first
 * {@code fanout} neighbours, collecting their first {@code fanout} neighbours each. Every GET is reported to the
 * machine's monitor (when there is one) with where the key and value were found, which is the access hook the
 * monitor needs for local and table-counted accesses. Reuses its sets across queries: no allocation per query once
 * they have grown.
 *
 * <pre>{@code
 * TwoHopQuery q = new TwoHopQuery(100);
 * int reached = q.run(machine.session(), start, monitor);
 * }</pre>
 */
final class TwoHopQuery {
    static final int LABEL = 0;

    private final int fanout;
    private final LongHashSet firstHop = new LongHashSet();
    private final LongHashSet secondHop = new LongHashSet();
    private long gets;

    TwoHopQuery(int fanout) {
        this.fanout = fanout;
    }

    /** GETs issued so far. */
    long gets() {
        return gets;
    }

    /** Runs the query on the machine {@code session} belongs to; returns how many distinct vertices it reached. */
    int run(Session session, long start, Monitor monitor) {
        firstHop.clear();
        secondHop.clear();
        expand(session, start, firstHop, monitor);
        LongHashSet.LongIterator it = firstHop.iterator();
        while (it.hasNext()) {
            expand(session, it.nextValue(), secondHop, monitor);
        }
        return secondHop.size();
    }

    private void expand(Session session, long vertex, LongHashSet into, Monitor monitor) {
        long key = KeyLayout.key(vertex, LABEL, KeyLayout.OUT);
        ValueView adj = session.get(key);
        gets++;
        if (adj == null) {
            return;
        }
        if (monitor != null) {
            // The session's last lookup is the one that found this value: its home and address word say where.
            monitor.onAccess(key, session.home(), Address.host(session.address(), session.home()));
        }
        int n = Math.min(adj.longCount(), fanout);
        for (int i = 0; i < n; i++) {
            into.add(adj.getLong(i));
        }
    }
}
