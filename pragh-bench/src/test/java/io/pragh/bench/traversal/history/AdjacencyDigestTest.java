package io.pragh.bench.traversal.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.pragh.bench.extension.CappedAppend;
import java.util.SplittableRandom;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The digest follows the store's capped insert exactly, so the model predicts the lists the GETs must return. */
class AdjacencyDigestTest {
    /** What the store makes of {@code value} on an edge insert: the benchmark's mutator itself. */
    private static byte[] cappedAppend(byte[] value, long neighbour, long cap) {
        CappedAppend m = new CappedAppend();
        UnsafeBuffer cur = new UnsafeBuffer(value);
        UnsafeBuffer arg = new UnsafeBuffer(CappedAppend.argument(neighbour, cap));
        int len = m.newLength(cur, 0, value.length, arg, 0, CappedAppend.ARGUMENT_BYTES);
        byte[] out = new byte[len];
        m.write(cur, 0, value.length, arg, 0, CappedAppend.ARGUMENT_BYTES, new UnsafeBuffer(out), 0);
        return out;
    }

    @Test
    void aCappedAppendsDigestIsTheDigestOfTheMutatorsResult() {
        SplittableRandom rng = new SplittableRandom(7);
        for (int round = 0; round < 200; round++) {
            int cap = 1 + rng.nextInt(6);
            byte[] value = TraversalHistoryTest.bytes();
            AdjacencyDigest d = AdjacencyDigest.of(value);
            for (int i = 0; i < 12; i++) {
                long n = rng.nextLong(1 << 20);
                value = cappedAppend(value, n, cap);
                d = d.cappedAppend(n, cap);
                assertEquals(AdjacencyDigest.of(value), d, "round " + round + ", insert " + i + ", cap " + cap);
            }
        }
    }

    @Test
    void aListsDigestIsTheDigestOfItsCappedAppendsFromEmptyAtEveryLength() {
        // The digest of a whole list (four lanes) against the same list built one insert at a time (one chain).
        SplittableRandom rng = new SplittableRandom(11);
        long[] entries = new long[67];
        AdjacencyDigest built = AdjacencyDigest.of(TraversalHistoryTest.bytes());
        for (int n = 1; n <= entries.length; n++) {
            entries[n - 1] = rng.nextLong();
            built = built.cappedAppend(entries[n - 1], Long.MAX_VALUE);
            assertEquals(built, AdjacencyDigest.ofEntries(java.util.Arrays.copyOf(entries, n)), "length " + n);
        }
    }

    @Test
    void listsThatDifferInOrderOrOneEntryHaveDifferentDigestsAndTheEncodingRoundTrips() {
        AdjacencyDigest d = AdjacencyDigest.ofEntries(1, 2, 3);
        assertNotEquals(d, AdjacencyDigest.ofEntries(2, 1, 3));
        assertNotEquals(d, AdjacencyDigest.ofEntries(1, 2, 4));
        assertNotEquals(d, AdjacencyDigest.ofEntries(1, 2, 3, 0));
        assertEquals(d, AdjacencyDigest.decode(d.encode()));
        assertEquals(3, d.last());
    }
}
