package io.pragh.fabric;

import io.pragh.memory.RecordExtent;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The operations an {@link OpBatch} has recorded, as parallel arrays indexed by operation (one allocation per batch,
 * none per operation): what each is, where it goes, the caller's buffer and, for a CAS, its operands and witnessed
 * value. A fabric's batch keeps its own count and posting state beside these; the in-process and the verbs batches
 * record through this one class. Plain fields: a batch is used by the one thread that owns it.
 *
 * <pre>{@code
 * RecordedOps ops = new RecordedOps(64);
 * ops.read(0, peer, Region.VALUES, offset, dst, 0, length);
 * }</pre>
 */
public final class RecordedOps {
    public static final byte READ = 1;
    public static final byte WRITE = 2;
    public static final byte CAS = 3;

    public final byte[] kinds;
    public final int[] targets;
    public final Region[] regions;
    public final long[] offsets;
    public final int[] lengths;
    public final long[] expected;
    public final long[] desired;
    /** The value a completed CAS witnessed (filled by the fabric). */
    public final long[] results;
    /** Whether the caller asked for a completion of its own (false only for passive-ACK writes). */
    public final boolean[] signalRequested;
    public final DirectBuffer[] srcs;
    public final MutableDirectBuffer[] dsts;
    /** Offset in {@link #srcs} (WRITE) or {@link #dsts} (READ). */
    public final int[] bufOffsets;
    /** A READ's record extent ({@link OpBatch#readRecord}), null for a plain READ. */
    public final RecordExtent[] extents;

    public RecordedOps(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("batch capacity must be positive, got " + capacity);
        }
        kinds = new byte[capacity];
        targets = new int[capacity];
        regions = new Region[capacity];
        offsets = new long[capacity];
        lengths = new int[capacity];
        expected = new long[capacity];
        desired = new long[capacity];
        results = new long[capacity];
        signalRequested = new boolean[capacity];
        srcs = new DirectBuffer[capacity];
        dsts = new MutableDirectBuffer[capacity];
        bufOffsets = new int[capacity];
        extents = new RecordExtent[capacity];
    }

    public int capacity() {
        return kinds.length;
    }

    /** Records operation {@code i}'s kind and destination; a fabric's own kinds (above {@link #CAS}) record so. */
    public void record(int i, byte kind, int target, Region region, long offset, int length) {
        kinds[i] = kind;
        targets[i] = target;
        regions[i] = region;
        offsets[i] = offset;
        lengths[i] = length;
        signalRequested[i] = true;
    }

    public void read(int i, int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset,
                     int length) {
        readRecord(i, target, region, offset, dst, dstOffset, length, null);
    }

    /** A READ of a record of at most {@code maxLength} bytes whose first word says how far it extends. */
    public void readRecord(int i, int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset,
                           int maxLength, RecordExtent extent) {
        record(i, READ, target, region, offset, maxLength);
        dsts[i] = dst;
        bufOffsets[i] = dstOffset;
        extents[i] = extent;
    }

    public void write(int i, int target, Region region, long offset, DirectBuffer src, int srcOffset, int length,
                      boolean signalled) {
        record(i, WRITE, target, region, offset, length);
        srcs[i] = src;
        bufOffsets[i] = srcOffset;
        signalRequested[i] = signalled;
    }

    public void compareAndSwap(int i, int target, Region region, long offset, long expectedValue, long desiredValue) {
        record(i, CAS, target, region, offset, Long.BYTES);
        expected[i] = expectedValue;
        desired[i] = desiredValue;
    }

    /** Drops the references to the callers' buffers of the first {@code size} operations (a cleared batch). */
    public void release(int size) {
        for (int i = 0; i < size; i++) {
            srcs[i] = null;
            dsts[i] = null;
        }
    }
}
