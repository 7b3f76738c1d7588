package io.pragh.durability;

import io.pragh.PraghException;
import io.pragh.store.MachineStore;
import io.pragh.store.Mutators;
import io.pragh.store.ValueMutator;
import io.pragh.values.ValueRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rebuilds the keys a machine is home to from its data directory: the newest snapshot, then every logged update
 * after the snapshot's position, applied per key in version order (versions, not log order, because one key's
 * updates may have been applied on different hosts and logged in a different order). Updates a snapshot already
 * contains (version not above the snapshot's) are skipped. The store's incarnation counter is set above every
 * version replayed and the snapshot's own counter, deleted keys' included: version order stays acknowledgement order
 * only if a key re-inserted after the restart starts an incarnation above its logged DELETE. A torn record at the
 * very end of the log (a crash mid-write) is cut off and reported; a bad record anywhere else is corruption and
 * stops recovery.
 *
 * <pre>{@code
 * Recovery.Result r = Recovery.recover(dir, store);   // before the store serves
 * }</pre>
 */
public final class Recovery {
    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    /** What recovery found. */
    public record Result(long snapshotKeys, long logRecords, long keysLoaded, long tornBytes) {
    }

    private record Op(long version, int mutator, byte[] arg) {
    }

    private static final class State {
        long version;
        byte[] value;
        List<Op> ops;

        State(long version, byte[] value) {
            this.version = version;
            this.value = value;
        }
    }

    private Recovery() {
    }

    /** Recovers every key into {@code store}, which must be empty and not yet serving. */
    public static Result recover(Path dir, MachineStore store) throws IOException {
        Map<Long, State> state = new HashMap<>();
        long[] counts = replay(dir, store.mutators(), key -> true, state, true);
        store.observeVersion(ValueRecord.firstVersion(counts[3]));
        long loaded = 0;
        if (!state.isEmpty()) {
            // Survivors may still read records of these keys from before the restart (PutBackFence).
            store.putBacks().restarted();
        }
        for (Map.Entry<Long, State> e : state.entrySet()) {
            State s = e.getValue();
            if (s.value != null) {
                store.load(e.getKey(), s.version, new UnsafeBuffer(s.value), 0, s.value.length);
                loaded++;
            }
        }
        return new Result(counts[0], counts[1], loaded, counts[2]);
    }

    /**
     * The durable value of each key matching {@code keys}, with its version, as of the last record in the log: what a
     * home reloads when the machine that hosted some of its values crashed. Read-only: it changes neither the live
     * store nor the data directory (a torn or half-written record at the end of the last segment, which on a live
     * log is usually the record its writer is appending, ends the read instead of being cut off). The caller keeps
     * snapshots from deleting segments meanwhile ({@link Durability#durableValues} does).
     *
     * <pre>{@code
     * Map<Long, Recovery.DurableValue> d = Recovery.durableValues(dir, store.mutators(), lost::contains);
     * }</pre>
     *
     * @return key to durable value; keys without one (never written, or deleted) are absent
     */
    public static Map<Long, DurableValue> durableValues(Path dir, Mutators mutators, LongPredicate keys)
            throws IOException {
        Map<Long, State> state = new HashMap<>();
        replay(dir, mutators, keys, state, false);
        Map<Long, DurableValue> out = new HashMap<>();
        state.forEach((k, s) -> {
            if (s.value != null) {
                out.put(k, new DurableValue(s.version, s.value));
            }
        });
        return out;
    }

    /** A key's durable value and the version that produced it. */
    public record DurableValue(long version, byte[] value) {
    }

    /** @return {snapshot keys, log records, torn bytes, highest incarnation of the snapshot and every record read} */
    private static long[] replay(Path dir, Mutators mutators, LongPredicate wanted, Map<Long, State> state,
                                 boolean repair) throws IOException {
        long from = 0;
        long[] snapshotKeys = {0};
        long[] incarnation = {0};
        List<Long> snapshots = Segments.snapshots(dir);
        if (!snapshots.isEmpty()) {
            Snapshot.Header h = Snapshot.read(Segments.snapshotFile(dir, snapshots.get(snapshots.size() - 1)),
                (k, v, value) -> {
                    incarnation[0] = Math.max(incarnation[0], ValueRecord.incarnationOf(v));
                    if (wanted.test(k)) {
                        state.put(k, new State(v, value));
                    }
                    snapshotKeys[0]++;
                });
            from = h.position();
            incarnation[0] = Math.max(incarnation[0], h.incarnation());
        }
        long[] records = {0};
        long torn = readLog(dir, from, repair, (key, version, mutator, arg) -> {
            records[0]++;
            // Every record counts, a DELETE and one the snapshot already covers too: the key may have no value left.
            incarnation[0] = Math.max(incarnation[0], ValueRecord.incarnationOf(version));
            if (!wanted.test(key)) {
                return;
            }
            State s = state.computeIfAbsent(key, k -> new State(-1, null));
            if (version <= s.version) {
                return;
            }
            if (s.ops == null) {
                s.ops = new ArrayList<>();
            }
            s.ops.add(new Op(version, mutator, arg));
        });
        for (Map.Entry<Long, State> e : state.entrySet()) {
            State s = e.getValue();
            if (s.ops == null) {
                continue;
            }
            s.ops.sort(Comparator.comparingLong(Op::version));
            for (Op op : s.ops) {
                if (op.version() <= s.version) {
                    continue; // a LOG its host sent again because the first acknowledgement was slow or lost
                }
                s.value = apply(mutators, s.value, op);
                s.version = op.version();
            }
            s.ops = null;
        }
        return new long[] {snapshotKeys[0], records[0], torn, incarnation[0]};
    }

    private static byte[] apply(Mutators mutators, byte[] current, Op op) {
        ValueMutator m = mutators.get(op.mutator());
        UnsafeBuffer cur = new UnsafeBuffer(current == null ? new byte[0] : current);
        UnsafeBuffer arg = new UnsafeBuffer(op.arg());
        int curLen = current == null ? -1 : current.length;
        int length = m.newLength(cur, 0, curLen, arg, 0, op.arg().length);
        if (length == ValueMutator.DELETE) {
            return null;
        }
        byte[] next = new byte[length];
        m.write(cur, 0, curLen, arg, 0, op.arg().length, new UnsafeBuffer(next), 0);
        return next;
    }

    /** Receives log records during replay. */
    @FunctionalInterface
    interface RecordVisitor {
        void visit(long key, long version, int mutator, byte[] arg);
    }

    /**
     * Reads every record at or after {@code from}; returns how many torn bytes were found at the end. With
     * {@code repair} they are cut off the last segment (recovery at start); without, the read just stops there and
     * opens nothing for writing (reads of a live log).
     */
    static long readLog(Path dir, long from, boolean repair, RecordVisitor visitor) throws IOException {
        List<Long> starts = Segments.walStarts(dir);
        long torn = 0;
        for (int i = 0; i < starts.size(); i++) {
            long start = starts.get(i);
            boolean last = i == starts.size() - 1;
            Path file = Segments.walFile(dir, start);
            try (FileChannel ch = repair ? FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)
                    : FileChannel.open(file, StandardOpenOption.READ)) {
                long size = ch.size();
                if (start + size <= from) {
                    continue;
                }
                ByteBuffer bytes = ByteBuffer.allocate((int) size);
                while (bytes.hasRemaining() && ch.read(bytes) >= 0) {
                    // read the whole segment: segments are at most 64 MiB
                }
                UnsafeBuffer b = new UnsafeBuffer(bytes.array());
                int at = 0;
                while (at < size) {
                    String bad = null;
                    int body = 0;
                    if (size - at < LogRecord.PREFIX) {
                        bad = "a record prefix is cut short";
                    } else {
                        body = b.getInt(at);
                        if (body < LogRecord.ARG || body > LogRecord.MAX_BODY || at + LogRecord.PREFIX + body > size) {
                            bad = "a record of " + body + " bytes does not fit";
                        } else if (LogRecord.crc(b, at + LogRecord.PREFIX, body) != b.getInt(at + 4)) {
                            bad = "a record fails its checksum";
                        } else if (b.getInt(at + LogRecord.PREFIX + LogRecord.ARG_LENGTH) != body - LogRecord.ARG) {
                            bad = "a record's argument length disagrees with its size";
                        }
                    }
                    if (bad != null) {
                        if (!last) {
                            throw new PraghException("write-ahead log segment " + file + " is corrupt at byte " + at
                                + ": " + bad);
                        }
                        torn = size - at;
                        if (!repair) {
                            break;
                        }
                        LOG.warn("cutting {} torn bytes off the end of {} ({} at byte {})", torn, file, bad, at);
                        ch.truncate(at);
                        ch.force(true);
                        break;
                    }
                    if (start + at >= from) {
                        int r = at + LogRecord.PREFIX;
                        byte[] arg = new byte[body - LogRecord.ARG];
                        b.getBytes(r + LogRecord.ARG, arg);
                        visitor.visit(b.getLong(r + LogRecord.KEY), b.getLong(r + LogRecord.VERSION),
                            b.getInt(r + LogRecord.MUTATOR), arg);
                    }
                    at += LogRecord.PREFIX + body;
                }
            }
        }
        return torn;
    }
}
