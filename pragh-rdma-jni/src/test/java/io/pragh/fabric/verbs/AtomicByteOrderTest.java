package io.pragh.fabric.verbs;

import static io.pragh.fabric.verbs.AtomicByteOrder.PROBE_DESIRED;
import static io.pragh.fabric.verbs.AtomicByteOrder.PROBE_INITIAL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.FabricException;
import org.junit.jupiter.api.Test;

/**
 * The probe's decision for each way an adapter may treat CAS byte order, derived by playing that adapter: memory is
 * 8 little-endian bytes; a big-endian adapter reads and writes them reversed.
 */
class AtomicByteOrderTest {
    /** What a CAS on a word holding PROBE_INITIAL returns and leaves, for an adapter of the given kind. */
    private static long[] play(boolean bigEndianMemory, boolean swappedReply, long expected, long desired) {
        long memory = PROBE_INITIAL;
        long seen = bigEndianMemory ? Long.reverseBytes(memory) : memory;
        if (seen == expected) {
            memory = bigEndianMemory ? Long.reverseBytes(desired) : desired;
        }
        // The reply is the seen value, written either in host order or as its big-endian bytes.
        long written = bigEndianMemory || swappedReply ? Long.reverseBytes(seen) : seen;
        if (bigEndianMemory && swappedReply) {
            written = seen;
        }
        return new long[] {written, memory};
    }

    private static AtomicByteOrder probe(boolean bigEndianMemory, boolean swappedReply) {
        long[] first = play(bigEndianMemory, swappedReply, PROBE_INITIAL, PROBE_DESIRED);
        long[] second = AtomicByteOrder.needsSecondProbe(first[1])
            ? play(bigEndianMemory, swappedReply, Long.reverseBytes(PROBE_INITIAL), Long.reverseBytes(PROBE_DESIRED))
            : new long[] {0, 0};
        return AtomicByteOrder.decide(first[0], first[1], second[0], second[1]);
    }

    @Test
    void anAdapterWorkingInHostOrderIsNative() {
        assertEquals(AtomicByteOrder.NATIVE, probe(false, false));
    }

    @Test
    void aByteSwappedReplyIsDetected() {
        AtomicByteOrder order = probe(false, true);
        assertEquals(AtomicByteOrder.SWAPPED_REPLY, order);
        assertEquals(PROBE_INITIAL, order.reply(Long.reverseBytes(PROBE_INITIAL)));
        assertEquals(PROBE_DESIRED, order.operand(PROBE_DESIRED));
    }

    @Test
    void bigEndianMemoryNeedsSwappedOperands() {
        AtomicByteOrder order = probe(true, false);
        assertEquals(AtomicByteOrder.SWAPPED_OPERANDS, order);
        assertEquals(Long.reverseBytes(PROBE_DESIRED), order.operand(PROBE_DESIRED));
    }

    @Test
    void bigEndianThroughoutSwapsBoth() {
        assertEquals(AtomicByteOrder.SWAPPED, probe(true, true));
    }

    @Test
    void aSecondProbeIsOnlyNeededWhenTheFirstDidNotSwap() {
        assertFalse(AtomicByteOrder.needsSecondProbe(PROBE_DESIRED));
        assertTrue(AtomicByteOrder.needsSecondProbe(PROBE_INITIAL));
    }

    @Test
    void anythingElseIsAnErrorShowingTheProbe() {
        FabricException e = assertThrows(FabricException.class,
            () -> AtomicByteOrder.decide(42, PROBE_INITIAL, 43, PROBE_INITIAL));
        assertTrue(e.getMessage().contains("0x0102030405060708") && e.getMessage().contains("0x000000000000002a"),
            e.getMessage());
        assertFalse(e.retryable());
    }
}
