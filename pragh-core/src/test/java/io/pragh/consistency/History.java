package io.pragh.consistency;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What a concurrent run did, operation by operation: who, on which key, what kind, when it was invoked and when it
 * responded (both {@link System#nanoTime}), and what it wrote or read. Each client thread records into its own
 * {@link Recorder}, so recording adds no contention between the threads under test.
 *
 * <pre>{@code
 * History history = new History();
 * History.Recorder r = history.recorder(7);
 * long t0 = System.nanoTime();
 * byte[] v = machine.get(key);
 * r.get(key, t0, System.nanoTime(), v);
 * List<History.Op> all = history.ops();
 * }</pre>
 */
final class History {
    /** Response time of an operation that failed or never answered: it may or may not have taken effect. */
    static final long NO_RESPONSE = Long.MAX_VALUE;

    enum Kind { PUT, GET, APPEND, MIGRATE }

    /**
     * One operation.
     *
     * @param writeId PUT: the id of the value written ({@link WrittenValue}); APPEND: the 8-byte id appended
     * @param read    GET: the bytes returned (null when the key had no value)
     * @param error   why the operation failed, or null
     */
    record Op(int thread, long key, Kind kind, long invoke, long response, long writeId, byte[] read, String error) {
        boolean acknowledged() {
            return response != NO_RESPONSE;
        }

        @Override
        public String toString() {
            return kind + "[thread " + thread + ", key " + key + ", " + invoke + ".."
                + (acknowledged() ? Long.toString(response) : "no response") + (kind == Kind.GET ? ""
                : ", id " + Long.toHexString(writeId)) + (error == null ? "" : ", error " + error) + "]";
        }
    }

    private final List<Recorder> recorders = Collections.synchronizedList(new ArrayList<>());

    Recorder recorder(int thread) {
        Recorder r = new Recorder(thread);
        recorders.add(r);
        return r;
    }

    /** Every recorded operation; call once the threads that record have stopped. */
    List<Op> ops() {
        List<Op> all = new ArrayList<>();
        synchronized (recorders) {
            for (Recorder r : recorders) {
                all.addAll(r.ops);
            }
        }
        return all;
    }

    /** One thread's log; not thread-safe. */
    static final class Recorder {
        private final int thread;
        private final List<Op> ops = new ArrayList<>();

        private Recorder(int thread) {
            this.thread = thread;
        }

        void put(long key, long writeId, long invoke, long response) {
            ops.add(new Op(thread, key, Kind.PUT, invoke, response, writeId, null, null));
        }

        void append(long key, long edgeId, long invoke, long response) {
            ops.add(new Op(thread, key, Kind.APPEND, invoke, response, edgeId, null, null));
        }

        void get(long key, long invoke, long response, byte[] read) {
            ops.add(new Op(thread, key, Kind.GET, invoke, response, 0, read, null));
        }

        void migrate(long key, int target, long invoke, long response) {
            ops.add(new Op(thread, key, Kind.MIGRATE, invoke, response, target, null, null));
        }

        void failed(long key, Kind kind, long writeId, long invoke, Throwable error) {
            ops.add(new Op(thread, key, kind, invoke, NO_RESPONSE, writeId, null, String.valueOf(error)));
        }
    }
}
