package io.pragh.fabric;

import io.pragh.memory.RecordExtent;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One-sided operations posted together and completed by polling, as a migration thread pipelines many keys.
 * A batch belongs to the thread that created it: that thread adds operations, posts them and polls their
 * completions. Unsignalled writes (the paper's passive ACK) complete without being reported one by one; their
 * completion is implied once a later signalled operation of the same batch to the same peer completes.
 *
 * <pre>{@code
 * OpBatch b = endpoint.newBatch(64);
 * int cas = b.compareAndSwap(home, Region.KEYS, slot, expected, desired);
 * b.write(src, Region.VALUES, oldOffset, zeros, 0, 8, false);
 * b.post();
 * b.awaitAll();
 * boolean won = b.casResult(cas) == expected;
 * b.clear();
 * }</pre>
 */
public interface OpBatch {
    /** Queues a READ; returns the operation's index in this batch. */
    int read(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset, int length);

    /**
     * Queues a READ of a record that states its own length in its first word ({@code extent}): the first word is read
     * first, and a fabric may copy only what {@code extent} says that word covers, leaving the rest of the
     * {@code maxLength} bytes of {@code dst} as they were. By default a plain READ of {@code maxLength} bytes (what an
     * RDMA NIC does); the in-process fabric copies only the extent, as a local copy does.
     */
    default int readRecord(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset,
                           int maxLength, RecordExtent extent) {
        return read(target, region, offset, dst, dstOffset, maxLength);
    }

    /** Queues a WRITE; an unsignalled one reports no completion of its own. The source must stay unchanged until done. */
    int write(int target, Region region, long offset, DirectBuffer src, int srcOffset, int length, boolean signalled);

    /** Queues an 8-byte compare-and-swap on an aligned word; {@link #casResult} gives the value it witnessed. */
    int compareAndSwap(int target, Region region, long offset, long expected, long desired);

    /** Hands every queued, not yet posted operation to the fabric without waiting. */
    void post();

    /** Reaps completions without blocking; returns how many operations of this batch are still outstanding. */
    int poll();

    /** Polls until every posted operation completed; throws the first failure. */
    void awaitAll();

    /** Whether operation {@code op} completed. */
    boolean isDone(int op);

    /**
     * The witnessed value of a completed CAS; an {@link IllegalStateException} when it has not completed or it failed
     * (then it witnessed nothing, and whether it took effect at its target is unknown).
     */
    long casResult(int op);

    /** Number of operations added since the last {@link #clear}. */
    int size();

    int capacity();

    /** Forgets all operations; only allowed when none is outstanding. */
    void clear();
}
