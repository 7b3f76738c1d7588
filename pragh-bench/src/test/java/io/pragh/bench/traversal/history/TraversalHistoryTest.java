package io.pragh.bench.traversal.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.bench.traversal.deploy.PathRecorder;
import io.pragh.keys.KeyLayout;
import io.pragh.store.ValueView;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The benchmark's history check fails on what it must: a GET that returns a list an insert had already replaced
 * (the insert answered before the GET was invoked), and passes reads that overlap the insert either way.
 */
class TraversalHistoryTest {
    private static final long KEY = KeyLayout.key(7, 0, KeyLayout.OUT);
    private static final long[] LOADED = {1, 2, 3};

    private TraversalHistory history;
    private long t;

    @BeforeEach
    void load() {
        history = new TraversalHistory(KeySample.all(), 1, k -> k == KEY ? bytes(LOADED) : null, 100);
        history.loaded();
        t = System.nanoTime() + 1_000;
    }

    static byte[] bytes(long... entries) {
        byte[] b = new byte[entries.length * Long.BYTES];
        UnsafeBuffer buf = new UnsafeBuffer(b);
        for (int i = 0; i < entries.length; i++) {
            buf.putLong(i * Long.BYTES, entries[i]);
        }
        return b;
    }

    private static ValueView view(long... entries) {
        return new ValueView().over(bytes(entries));
    }

    @Test
    void aReadOfTheOverwrittenListAfterTheInsertAnsweredIsAViolation() {
        PathRecorder writer = history.recorder();
        PathRecorder reader = history.recorder();
        reader.read(KEY, view(LOADED), t, t + 10);
        writer.inserted(KEY, 9, 10, t + 20, t + 30);
        reader.read(KEY, view(LOADED), t + 40, t + 50); // stale: the insert answered at t + 30
        HistoryCheck check = history.check();
        assertFalse(check.linearizable(), check.describe());
        assertEquals(1, check.violatingKeys());
        assertEquals(KEY, check.firstViolatingKey());
        assertTrue(check.violation().contains("key " + KEY) && check.violation().contains("neighbour 9"),
            check.violation());
        assertEquals(2, check.reads());
        assertEquals(1, check.inserts());
        assertEquals(1, check.insertedKeys());
        assertEquals(2, check.threads());
        assertEquals(false, check.asMap().get("linearizable"));
        assertEquals(KEY, check.asMap().get("first_violating_key"));
    }

    @Test
    void readsOverlappingTheInsertMaySeeEitherListButNotGoBack() {
        PathRecorder writer = history.recorder();
        PathRecorder reader = history.recorder();
        writer.inserted(KEY, 9, 10, t + 20, t + 30);
        reader.read(KEY, view(1, 2, 3, 9), t + 21, t + 22); // overlaps the insert: its effect may be seen
        reader.read(KEY, view(1, 2, 3, 9), t + 40, t + 50);
        HistoryCheck ok = history.check();
        assertTrue(ok.linearizable(), ok.describe());
        assertNull(ok.firstViolatingKey());
        assertEquals(1, ok.keys());
    }

    @Test
    void aNewReadAfterAnOverlappingReadSawTheInsertMustNotGoBack() {
        PathRecorder writer = history.recorder();
        PathRecorder reader = history.recorder();
        PathRecorder other = history.recorder();
        writer.inserted(KEY, 9, 10, t + 20, t + 100);
        reader.read(KEY, view(1, 2, 3, 9), t + 21, t + 22);   // saw the insert while it ran
        other.read(KEY, view(LOADED), t + 30, t + 40);        // later, saw the list before it: not linearizable
        HistoryCheck check = history.check();
        assertFalse(check.linearizable(), check.describe());
    }

    @Test
    void aFullListHasItsLastEntryReplacedAsTheCappedInsertDoes() {
        PathRecorder p = history.recorder();
        p.inserted(KEY, 9, 3, t + 20, t + 30);
        p.read(KEY, view(1, 2, 9), t + 40, t + 50);
        assertTrue(history.check().linearizable());
        p.inserted(KEY, 8, 3, t + 60, t + 70);
        p.read(KEY, view(1, 2, 9, 8), t + 80, t + 90); // would be a plain append's list
        assertFalse(history.check().linearizable());
    }

    @Test
    void readsPastTheBudgetAreCountedNotRecorded() {
        TraversalHistory small = new TraversalHistory(KeySample.all(), 1, k -> bytes(LOADED), 1);
        small.loaded();
        t = System.nanoTime() + 1_000;
        PathRecorder p = small.recorder();
        p.read(KEY, view(LOADED), t, t + 1);
        p.read(KEY, view(9, 9), t + 2, t + 3); // past the budget: not checked
        HistoryCheck check = small.check();
        assertTrue(check.linearizable(), check.describe());
        assertEquals(1, check.reads());
        assertEquals(1, check.readsNotRecorded());
    }

    @Test
    void aReadOfAKeyWithoutAValueIsCheckedToo() {
        PathRecorder p = history.recorder();
        long other = KeyLayout.key(8, 0, KeyLayout.OUT); // the loader put nothing under it
        p.read(other, null, t, t + 1);
        assertTrue(history.check().linearizable());
        p.read(KEY, null, t + 2, t + 3); // KEY was loaded: "no value" is impossible
        assertEquals(KEY, history.check().firstViolatingKey());
    }
}
