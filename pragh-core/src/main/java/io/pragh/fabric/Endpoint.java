package io.pragh.fabric;

import io.pragh.memory.RecordExtent;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One machine's attachment to a fabric: the one-sided operations it issues against peers' registered memory and
 * the two-sided messages it sends. Single operations are synchronous and thread-safe; batches are per thread.
 * A one-sided operation is performed by the fabric (the caller, the peer's I/O thread, or the NIC), never by the
 * peer's worker threads. Offsets are byte offsets within the target's region; an access must lie inside one chunk.
 *
 * <pre>{@code
 * Endpoint ep = fabric.attach(0, memory, handler);
 * long seen = ep.compareAndSwap(1, Region.KEYS, slotOffset, oldAddress, newAddress);
 * ep.read(1, Region.VALUES, valueOffset, scratch, 0, 64);
 * }</pre>
 */
public interface Endpoint {
    int machine();

    int machineCount();

    FabricStats stats();

    void read(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset, int length);

    /**
     * READ of a record that states its own length in its first word, as {@link OpBatch#readRecord}: by default a
     * plain READ of {@code maxLength} bytes; the in-process fabric copies only the extent. Returns nothing: the
     * caller reads the length from the copied first word.
     */
    default void readRecord(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset,
                            int maxLength, RecordExtent extent) {
        read(target, region, offset, dst, dstOffset, maxLength);
    }

    void write(int target, Region region, long offset, DirectBuffer src, int srcOffset, int length);

    /** Atomic 8-byte compare-and-swap on an aligned word; returns the value witnessed (== expected on success). */
    long compareAndSwap(int target, Region region, long offset, long expected, long desired);

    /** A batch of at most {@code capacity} operations for the calling thread. */
    OpBatch newBatch(int capacity);

    /**
     * Sends a two-sided message, delivered to the target's {@link MessageHandler} in order per sender. Returns once
     * the fabric took the bytes (they may be reused); delivery is asynchronous.
     */
    void send(int target, DirectBuffer message, int offset, int length);

    /**
     * Whether a CPU compare-and-swap on this machine's registered memory is atomic with peers' one-sided CAS on the
     * same word. True for the in-process and TCP fabrics (every CAS is a CPU CAS) and for NICs with global atomics;
     * false for NICs whose atomics are only atomic among themselves (IBV_ATOMIC_HCA), where the store must CAS its own
     * address words through the fabric too (a loopback CAS) so that local PUTs never race remote MIGRATEs.
     */
    default boolean cpuAtomicsCoherent() {
        return true;
    }

    /**
     * The largest message {@link #send} carries; a protocol that batches into messages (load reports) sizes them by
     * it. Unbounded by default.
     */
    default int maxMessageBytes() {
        return Integer.MAX_VALUE;
    }

    /** Whether the peer is believed reachable now; operations on an unreachable peer fail fast. */
    boolean isReachable(int target);
}
