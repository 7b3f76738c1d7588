package io.pragh.linearizability;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where a concurrent run records its operations. Each client thread records through its own {@link Recorder}, so
 * recording adds no contention between the threads under test (a recorder's lock is only ever contended by
 * {@link #drain}). A long run drains the history window by window and checks each, so memory stays bounded.
 *
 * <pre>{@code
 * History history = new History();
 * History.Recorder r = history.recorder(7);
 * long t0 = System.nanoTime();
 * byte[] v = machine.get(key);
 * r.get(key, v, t0, System.nanoTime());
 * List<Operation> ops = history.drain();
 * }</pre>
 */
public final class History {
    private final List<Recorder> recorders = new CopyOnWriteArrayList<>();

    /** A new recorder for one client thread. */
    public Recorder recorder(int client) {
        Recorder r = new Recorder(client);
        recorders.add(r);
        return r;
    }

    /** Takes every operation recorded so far, in no particular order; later ones go to the next drain. */
    public List<Operation> drain() {
        List<Operation> all = new ArrayList<>();
        for (Recorder r : recorders) {
            r.drainTo(all);
        }
        return all;
    }

    /** One client's log. Its methods are called by that client's thread only. */
    public static final class Recorder {
        private final int client;
        private List<Operation> ops = new ArrayList<>();

        private Recorder(int client) {
            this.client = client;
        }

        public int client() {
            return client;
        }

        public void put(long key, byte[] value, long invoke, long response) {
            add(Operation.put(client, key, value, invoke, response));
        }

        public void append(long key, byte[] appended, long invoke, long response) {
            add(Operation.append(client, key, appended, invoke, response));
        }

        public void delete(long key, long invoke, long response) {
            add(Operation.delete(client, key, invoke, response));
        }

        public void get(long key, byte[] returned, long invoke, long response) {
            add(Operation.get(client, key, returned, invoke, response));
        }

        public void migrate(long key, int target, long invoke, long response) {
            add(Operation.migrate(client, key, target, invoke, response));
        }

        public void replicate(long key, int target, long invoke, long response) {
            add(Operation.replicate(client, key, target, invoke, response));
        }

        /** An operation that failed or never answered: it may or may not have taken effect. */
        public void failed(Operation.Kind kind, long key, byte[] input, int target, long invoke, Throwable error) {
            add(Operation.failed(client, kind, key, input, target, invoke, String.valueOf(error)));
        }

        public synchronized void add(Operation op) {
            ops.add(op);
        }

        private synchronized void drainTo(List<Operation> out) {
            out.addAll(ops);
            ops = new ArrayList<>();
        }
    }
}
