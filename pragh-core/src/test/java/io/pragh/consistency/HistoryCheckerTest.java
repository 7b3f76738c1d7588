package io.pragh.consistency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.graph.KHopTraversal;
import io.pragh.keys.KeyLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The checker flags each kind of violation it claims to, and accepts the overlaps a linearizable store allows. */
class HistoryCheckerTest {
    private static final long A = KeyLayout.key(1, 0, KeyLayout.VERTEX);
    private static final long B = KeyLayout.key(2, 0, KeyLayout.VERTEX);
    private static final long EDGES = KeyLayout.key(1, 0, KeyLayout.OUT);

    private final History history = new History();
    private final History.Recorder r = history.recorder(1);

    private static long id(int seq) {
        return WrittenValue.id(1, seq);
    }

    private void put(long key, int seq, long invoke, long response) {
        r.put(key, id(seq), invoke, response);
    }

    private void get(long key, int seqRead, long invoke, long response) {
        r.get(key, invoke, response, WrittenValue.encode(key, id(seqRead)));
    }

    private void getEdges(long invoke, long response, long... ids) {
        byte[] b = new byte[ids.length * 8];
        for (int i = 0; i < ids.length; i++) {
            System.arraycopy(KHopTraversal.encode(ids[i]), 0, b, i * 8, 8);
        }
        r.get(EDGES, invoke, response, b);
    }

    private List<String> violations() {
        return HistoryChecker.check(history.ops()).violations();
    }

    private void assertFlagged(String kind) {
        List<String> v = violations();
        assertTrue(v.stream().anyMatch(s -> s.startsWith(kind)), "expected a '" + kind + "' violation, got " + v);
    }

    @Test
    void acceptsEveryReadALinearizableRegisterAllows() {
        put(A, 1, 0, 10);
        put(A, 2, 20, 60);          // overlaps the reads below
        get(A, 1, 30, 40);          // old value while w2 is in flight
        get(A, 2, 35, 45);          // new value while w2 is in flight
        get(A, 2, 70, 80);
        put(A, 3, 90, 100);
        put(A, 4, 95, 105);         // concurrent writes: either may win
        get(A, 3, 110, 120);
        get(A, 3, 130, 140);
        r.failed(A, History.Kind.PUT, id(5), 150, new RuntimeException("timed out"));
        get(A, 5, 160, 170);        // a failed write may still have taken effect
        r.get(B, 0, 5, null);       // nothing written to B yet
        r.append(EDGES, 11, 0, 10);
        r.append(EDGES, 12, 20, 40);
        getEdges(25, 35, 11);       // 12 not yet acknowledged
        getEdges(30, 38, 11, 12);
        getEdges(50, 60, 12, 11);   // order does not matter
        assertEquals(List.of(), violations());
        assertEquals(List.of(), HistoryChecker.check(history.ops()).inversions());
    }

    @Test
    void flagsAStaleRead() {
        put(A, 1, 0, 10);
        put(A, 2, 20, 30);
        put(A, 3, 200, 210);        // keeps the read below from being a final one
        get(A, 1, 40, 50);
        assertFlagged("stale read: ");
    }

    @Test
    void flagsAReadOfNothingAfterAnAcknowledgedPut() {
        put(A, 1, 0, 10);
        put(A, 2, 200, 210);
        r.get(A, 20, 30, null);
        assertFlagged("stale read (nothing)");
    }

    @Test
    void flagsALostWriteInTheFinalState() {
        put(A, 1, 0, 10);
        put(A, 2, 20, 30);
        get(A, 1, 100, 110);
        assertFlagged("lost write: ");
    }

    @Test
    void flagsAReadOfAnotherKeysBytes() {
        put(A, 1, 0, 10);
        put(B, 2, 0, 10);
        r.get(A, 20, 30, WrittenValue.encode(B, id(2)));
        assertFlagged("foreign-key read: ");
    }

    @Test
    void flagsATornValue() {
        put(A, 1, 0, 10);
        byte[] torn = WrittenValue.encode(A, id(1));
        torn[torn.length - 1] ^= 1;
        r.get(A, 20, 30, torn.length > WrittenValue.FIXED_BYTES ? torn : new byte[3]);
        assertFlagged("corrupt read: ");
    }

    @Test
    void flagsAReadFromTheFuture() {
        put(A, 1, 0, 10);
        put(A, 2, 50, 60);
        get(A, 2, 20, 30);
        assertFlagged("read from the future: ");
    }

    @Test
    void reportsANewOldInversionApartFromViolations() {
        put(A, 1, 0, 10);
        put(A, 2, 20, 100);         // long write: neither read below is "known overwritten" by it
        get(A, 2, 30, 40);
        get(A, 1, 50, 60);          // after a read that already saw w2, which began after w1 ended
        HistoryChecker.Report report = HistoryChecker.check(history.ops());
        assertEquals(List.of(), report.violations(), "a regular register may do this while w2 is in flight");
        assertEquals(1, report.inversions().size(), report.inversions().toString());
        assertTrue(report.inversions().get(0).startsWith("new-old inversion: "), report.inversions().toString());
    }

    @Test
    void flagsAnInversionAgainstAnAcknowledgedWriteAsAStaleRead() {
        put(A, 1, 0, 10);
        put(A, 2, 20, 45);
        put(A, 3, 200, 210);
        get(A, 2, 30, 40);
        get(A, 1, 50, 60);          // w2 was acknowledged before this GET began
        assertFlagged("stale read: ");
    }

    @Test
    void flagsAMissingAcknowledgedEdge() {
        r.append(EDGES, 11, 0, 10);
        r.append(EDGES, 12, 20, 30);
        r.append(EDGES, 13, 200, 210);
        getEdges(40, 50, 11);
        assertFlagged("stale read (missing edge): ");
    }

    @Test
    void flagsALostEdgeInTheFinalState() {
        r.append(EDGES, 11, 0, 10);
        r.append(EDGES, 12, 20, 30);
        getEdges(100, 110, 12);
        assertFlagged("lost edge: ");
    }

    @Test
    void flagsADuplicatedEdge() {
        r.append(EDGES, 11, 0, 10);
        getEdges(100, 110, 11, 11);
        assertFlagged("duplicated edge: ");
    }

    @Test
    void flagsAnEdgeOfAnotherKey() {
        long otherEdges = KeyLayout.key(2, 0, KeyLayout.OUT);
        r.append(EDGES, 11, 0, 10);
        r.append(otherEdges, 21, 0, 10);
        getEdges(100, 110, 11, 21);
        assertFlagged("foreign-key read: ");
    }

    @Test
    void writtenValuesCarryTheirKeyAndWriteAndDetectDamage() {
        List<byte[]> lengths = new ArrayList<>();
        for (int seq = 0; seq < 100; seq++) {
            byte[] v = WrittenValue.encode(A, WrittenValue.id(3, seq));
            WrittenValue.Decoded d = WrittenValue.decode(v);
            assertEquals(null, d.problem());
            assertEquals(A, d.key());
            assertEquals(WrittenValue.id(3, seq), d.id());
            lengths.add(v);
        }
        assertTrue(lengths.stream().mapToInt(v -> v.length).distinct().count() > 10, "lengths vary across writes");
        byte[] v = WrittenValue.encode(A, WrittenValue.id(3, 7));
        assertNotNull(WrittenValue.decode(java.util.Arrays.copyOf(v, v.length - 1)).problem(), "a cut value");
        assertNotNull(WrittenValue.decode(new byte[8]).problem(), "a value no PUT writes");
    }
}
