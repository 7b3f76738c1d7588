package io.pragh.fabric.verbs;

import io.pragh.fabric.FabricException;

/**
 * How an adapter's RDMA compare-and-swap treats byte order. Verbs pass the compare and swap operands as host
 * integers, but adapters have differed in how they interpret the 64-bit word in memory and in which order they
 * write the witnessed value back. A wrong guess would make every CAS silently fail or corrupt address words, so an
 * endpoint measures it once ({@link #decide}) with a loopback probe on a word of its own.
 *
 * <pre>{@code
 * AtomicByteOrder order = AtomicByteOrder.decide(P, Q, r1, m1, r2, m2);
 * long witnessed = order.reply(resultWord);
 * }</pre>
 */
public enum AtomicByteOrder {
    /** Operands, memory and reply all in host order (what current adapters do). */
    NATIVE(false, false),
    /** Memory compared in host order, but the witnessed value comes back byte-swapped. */
    SWAPPED_REPLY(false, true),
    /** Memory interpreted big-endian: operands must be swapped; the reply lands in memory order. */
    SWAPPED_OPERANDS(true, false),
    /** Memory interpreted big-endian and the reply written as a host integer of that value. */
    SWAPPED(true, true);

    /** The probe's first value; its bytes all differ, so a swap can never be mistaken for no swap. */
    public static final long PROBE_INITIAL = 0x0102_0304_0506_0708L;
    public static final long PROBE_DESIRED = 0x1112_1314_1516_1718L;

    private final boolean swapOperands;
    private final boolean swapReply;

    AtomicByteOrder(boolean swapOperands, boolean swapReply) {
        this.swapOperands = swapOperands;
        this.swapReply = swapReply;
    }

    /** An operand (expected or desired value) as the adapter must be given it. */
    public long operand(long value) {
        return swapOperands ? Long.reverseBytes(value) : value;
    }

    /** The witnessed value, in host order, from the word the adapter wrote back. */
    public long reply(long written) {
        return swapReply ? Long.reverseBytes(written) : written;
    }

    /**
     * Decides from a probe on a word that held {@link #PROBE_INITIAL}: a CAS(initial, desired) that returned
     * {@code reply1} and left {@code memory1}; if that did not swap, a second CAS with both operands byte-swapped
     * that returned {@code reply2} and left {@code memory2} (ignored otherwise).
     */
    public static AtomicByteOrder decide(long reply1, long memory1, long reply2, long memory2) {
        long p = PROBE_INITIAL;
        long q = PROBE_DESIRED;
        if (memory1 == q) {
            if (reply1 == p) {
                return NATIVE;
            }
            if (reply1 == Long.reverseBytes(p)) {
                return SWAPPED_REPLY;
            }
        } else if (memory1 == p && memory2 == q) {
            if (reply2 == p) {
                return SWAPPED_OPERANDS;
            }
            if (reply2 == Long.reverseBytes(p)) {
                return SWAPPED;
            }
        }
        throw new FabricException(String.format("the adapter's RDMA compare-and-swap semantics are not recognised: "
            + "probe word 0x%016x, CAS to 0x%016x returned 0x%016x and left 0x%016x; swapped retry returned 0x%016x "
            + "and left 0x%016x", p, q, reply1, memory1, reply2, memory2), false);
    }

    /** Whether {@link #decide} needs the second, byte-swapped probe after a first one that left {@code memory1}. */
    public static boolean needsSecondProbe(long memory1) {
        return memory1 != PROBE_DESIRED;
    }
}
