package io.pragh.linearizability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The search checker on hand-made histories, linearizable and not; times are in arbitrary units. */
class LinearizabilityCheckerTest {
    private static final long K = 7;
    private static final Operation.ValueFormat TEXT = v -> "'" + new String(v, StandardCharsets.UTF_8) + "'";

    private final List<Operation> h = new ArrayList<>();
    private final LinearizabilityChecker<ValueModel.State> checker = LinearizabilityChecker.forValues();

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private Operation put(int client, String v, long from, long to) {
        return add(Operation.put(client, K, b(v), from, to));
    }

    private Operation get(int client, String v, long from, long to) {
        return add(Operation.get(client, K, v == null ? null : b(v), from, to));
    }

    private Operation append(int client, String v, long from, long to) {
        return add(Operation.append(client, K, b(v), from, to));
    }

    private Operation delete(int client, long from, long to) {
        return add(Operation.delete(client, K, from, to));
    }

    private Operation failedPut(int client, String v, long from) {
        return add(Operation.failed(client, Operation.Kind.PUT, K, b(v), -1, from, "timed out"));
    }

    private Operation add(Operation op) {
        h.add(op);
        return op;
    }

    private CheckReport check() {
        CheckReport r = checker.check(h);
        System.out.println(r.describe(TEXT, 3));
        return r;
    }

    private void assertLinearizable() {
        CheckReport r = check();
        assertTrue(r.linearizable(), r.describe(TEXT, 3));
        assertTrue(r.undecidedKeys().isEmpty());
    }

    private Violation assertViolation(Operation culprit) {
        CheckReport r = check();
        assertEquals(1, r.violations().size(), r.describe(TEXT, 3));
        Violation v = r.violations().get(0);
        assertEquals(K, v.key());
        assertSame(culprit, v.culprit(), v.describe(TEXT));
        assertTrue(v.window().contains(culprit));
        return v;
    }

    @Test
    void sequentialWritesAndReadsAreLinearizable() {
        get(1, null, 0, 1);
        put(1, "a", 2, 3);
        get(2, "a", 4, 5);
        put(2, "b", 6, 7);
        get(1, "b", 8, 9);
        assertLinearizable();
    }

    @Test
    void aReadConcurrentWithAWriteMayReturnEitherValue() {
        put(1, "a", 0, 1);
        put(1, "b", 10, 100);
        get(2, "a", 20, 30);
        get(3, "b", 40, 50);
        assertLinearizable();
    }

    @Test
    void newThenOldReadsDuringAWriteAreAViolation() {
        put(1, "a", 0, 1);
        put(1, "b", 10, 100);
        get(2, "b", 20, 30);
        Operation old = get(3, "a", 40, 50);
        Violation v = assertViolation(old);
        assertEquals(3, v.window().size(), "the initial PUT is not needed to show it: " + v.describe(TEXT));
        assertFalse(v.fromInitialState());
    }

    @Test
    void aStaleReadAfterAnAcknowledgedWriteIsAViolation() {
        put(1, "a", 0, 10);
        put(1, "b", 20, 30);
        Operation stale = get(2, "a", 40, 50);
        assertViolation(stale);
    }

    @Test
    void aLostWriteIsAViolationEvenLongAfter() {
        for (int i = 0; i < 50; i++) {
            put(1, "v" + i, 100L * i, 100L * i + 10);
            get(2, "v" + i, 100L * i + 20, 100L * i + 30);
        }
        put(1, "last", 10_000, 10_010);
        Operation lost = get(2, "v49", 20_000, 20_010);
        Violation v = assertViolation(lost);
        assertTrue(v.window().size() <= 3, "a minimal window, not the whole history: " + v.describe(TEXT));
    }

    @Test
    void aReadOfAValueNobodyWroteIsAViolation() {
        put(1, "a", 0, 10);
        Operation bogus = get(2, "z", 20, 30);
        assertViolation(bogus);
    }

    @Test
    void aReadFromTheFutureIsAViolation() {
        Operation early = get(2, "a", 0, 10);
        put(1, "a", 20, 30);
        assertViolation(early);
    }

    @Test
    void readsThatTouchAWriteAtOneInstantCountAsConcurrent() {
        put(1, "a", 0, 1);
        put(1, "b", 10, 20);
        get(2, "a", 20, 30);
        assertLinearizable();
    }

    @Test
    void aWriteOfUnknownOutcomeMayHaveTakenEffect() {
        put(1, "a", 0, 10);
        failedPut(1, "b", 20);
        get(2, "b", 30, 40);
        get(2, "b", 50, 60);
        assertLinearizable();
    }

    @Test
    void aWriteOfUnknownOutcomeMayNeverHaveTakenEffect() {
        put(1, "a", 0, 10);
        failedPut(1, "b", 20);
        get(2, "a", 30, 40);
        get(2, "a", 1_000, 1_010);
        assertLinearizable();
    }

    @Test
    void aWriteOfUnknownOutcomeMayTakeEffectLongAfterItWasInvoked() {
        put(1, "a", 0, 10);
        failedPut(1, "b", 20);
        get(2, "a", 1_000, 1_010);
        get(2, "b", 5_000, 5_010);
        assertLinearizable();
    }

    @Test
    void aWriteOfUnknownOutcomeTakesEffectAtMostOnce() {
        put(1, "a", 0, 10);
        failedPut(1, "b", 20);
        get(2, "b", 30, 40);
        Operation back = get(2, "a", 50, 60);
        assertViolation(back);
    }

    @Test
    void concurrentAppendsLandInSomeOrderExactlyOnce() {
        append(1, "x", 0, 100);
        append(2, "y", 0, 100);
        get(3, "yx", 110, 120);
        assertLinearizable();
        h.clear();
        append(1, "x", 0, 100);
        append(2, "y", 0, 100);
        Operation twice = get(3, "xyx", 110, 120);
        assertViolation(twice);
    }

    @Test
    void anAppendThatDisappearsIsAViolation() {
        append(1, "x", 0, 10);
        append(1, "y", 20, 30);
        get(2, "xy", 40, 50);
        Operation shrunk = get(2, "x", 60, 70);
        assertViolation(shrunk);
    }

    @Test
    void appendsAfterAPutExtendIt() {
        put(1, "ab", 0, 10);
        append(1, "c", 20, 30);
        get(2, "abc", 40, 50);
        delete(1, 60, 70);
        append(1, "d", 80, 90);
        get(2, "d", 100, 110);
        assertLinearizable();
    }

    @Test
    void aReinsertLostAfterADeleteIsAViolation() {
        put(1, "a", 0, 10);
        delete(1, 20, 30);
        get(2, null, 40, 50);
        put(1, "b", 60, 70);
        Operation lost = get(2, null, 80, 90);
        assertViolation(lost);
    }

    @Test
    void keysAreCheckedIndependentlyAndOnlyTheBrokenOneIsReported() {
        h.add(Operation.put(1, 1, b("a"), 0, 10));
        h.add(Operation.get(2, 1, b("a"), 20, 30));
        h.add(Operation.put(1, 2, b("a"), 0, 10));
        h.add(Operation.put(1, 2, b("b"), 20, 30));
        h.add(Operation.get(2, 2, b("a"), 40, 50));
        CheckReport r = checker.check(h);
        assertEquals(2, r.keys());
        assertEquals(1, r.violations().size());
        assertEquals(2, r.violations().get(0).key());
    }

    @Test
    void aWindowFromTheMiddleOfARunStartsFromAnUnknownValue() {
        get(2, "from before", 0, 10);
        put(1, "a", 20, 30);
        get(2, "a", 40, 50);
        assertTrue(checker.check(h, false).linearizable());
        assertFalse(checker.check(h, true).linearizable(), "from the initial state nobody wrote 'from before'");
        h.add(Operation.get(3, K, b("from before"), 60, 70));
        assertFalse(checker.check(h, false).linearizable(), "an unknown value is still one value");
    }

    @Test
    void migrationsAndFailedReadsConstrainNothingButShowInTheWindow() {
        put(1, "a", 0, 10);
        h.add(Operation.migrate(4, K, 2, 5, 25));
        h.add(Operation.failed(3, Operation.Kind.GET, K, null, -1, 12, "unreachable"));
        put(1, "b", 20, 30);
        Operation stale = get(2, "a", 40, 50);
        Violation v = assertViolation(stale);
        assertEquals(2, v.context().size(), v.describe(TEXT));
    }

    @Test
    void failedWritesNobodyReadDoNotMultiplyTheSearch() {
        LinearizabilityChecker<ValueModel.State> small = new LinearizabilityChecker<>(ValueModel.INSTANCE, 2_000);
        for (int i = 0; i < 60; i++) {
            h.add(Operation.failed(9, Operation.Kind.PUT, K, b("lost" + i), -1, 0, "timed out"));
        }
        for (int i = 0; i < 100; i++) {
            put(1, "v" + i, 100L * i, 100L * i + 10);
            get(2, "v" + i, 100L * i + 20, 100L * i + 30);
        }
        CheckReport r = small.check(h);
        assertTrue(r.linearizable() && r.undecidedKeys().isEmpty(), r.describe(TEXT, 1));
        assertEquals(200, r.checked());
    }

    @Test
    void aSearchBeyondItsBudgetIsReportedUndecidedNotPassed() {
        LinearizabilityChecker<ValueModel.State> tiny = new LinearizabilityChecker<>(ValueModel.INSTANCE, 20);
        for (int i = 0; i < 12; i++) {
            append(i, "x" + i, 0, 1_000);
        }
        get(99, "x11", 2_000, 2_010);
        CheckReport r = tiny.check(h);
        assertEquals(List.of(K), r.undecidedKeys());
        assertTrue(r.violations().isEmpty());
    }

    @Test
    void manyConcurrentClientsOfALinearizableRegisterPass() {
        // Each round: four overlapping writes, then readers that all see the last writer; the search must find it.
        long t = 0;
        String last = null;
        for (int round = 0; round < 200; round++) {
            for (int c = 0; c < 4; c++) {
                put(c, "r" + round + "c" + c, t + c, t + 50 + c);
            }
            last = "r" + round + "c" + (round % 4);
            for (int c = 4; c < 8; c++) {
                get(c, last, t + 100 + c, t + 120 + c);
            }
            t += 200;
        }
        // The last write of a round must be the one read, so the others linearize before it.
        CheckReport r = checker.check(h);
        assertTrue(r.linearizable(), r.describe(TEXT, 1));
        assertEquals(1_600, r.checked());
    }

    @Test
    void aFailedWriteThatAReadSawCannotComeBackAfterBeingOverwritten() {
        failedPut(1, "p", 0);
        get(2, "p", 10, 20);
        put(3, "q", 30, 40);
        Operation back = get(2, "p", 50, 60);
        assertViolation(back);
    }

    @Test
    void appendsOfEqualBytesAreNotMistakenForOneAnother() {
        // The failed APPEND's bytes appear in the read, but the completed one explains them: it never took effect.
        append(1, "x", 0, 10);
        add(Operation.failed(2, Operation.Kind.APPEND, K, b("x"), -1, 5, "timed out"));
        get(3, "x", 20, 30);
        assertLinearizable();
    }

    @Test
    void manyFailedWritesThatReadsSawStayCheapToCheck() {
        LinearizabilityChecker<ValueModel.State> small = new LinearizabilityChecker<>(ValueModel.INSTANCE, 5_000);
        long t = 0;
        for (int i = 0; i < 300; i++) {
            add(Operation.failed(1, Operation.Kind.APPEND, K, b("<" + i + ">"), -1, t, "timed out"));
            add(Operation.failed(2, Operation.Kind.APPEND, K, b("[" + i + "]"), -1, t + 1, "timed out"));
            t += 100;
        }
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            all.append("<").append(i).append(">").append("[").append(i).append("]");
            get(3, all.toString(), 100L * i + 50, 100L * i + 60);
        }
        CheckReport r = small.check(h);
        assertTrue(r.linearizable() && r.undecidedKeys().isEmpty(), r.describe(TEXT, 1));
    }

    @Test
    void manyDeletesOfUnknownOutcomeStayCheapToCheck() {
        LinearizabilityChecker<ValueModel.State> small = new LinearizabilityChecker<>(ValueModel.INSTANCE, 20_000);
        for (int i = 0; i < 200; i++) {
            long t = 100L * i;
            add(Operation.failed(9, Operation.Kind.DELETE, K, null, -1, t, "timed out"));
            put(1, "v" + i, t + 10, t + 20);
            get(2, "v" + i, t + 30, t + 40);
        }
        get(2, null, 30_000, 30_010);
        CheckReport r = small.check(h);
        assertTrue(r.linearizable() && r.undecidedKeys().isEmpty(), r.describe(TEXT, 1));
    }

    @Test
    void aDeleteOfUnknownOutcomeThatReadsSawCannotBeUndone() {
        put(1, "a", 0, 10);
        add(Operation.failed(2, Operation.Kind.DELETE, K, null, -1, 20, "timed out"));
        get(3, null, 30, 40);
        Operation back = get(3, "a", 50, 60);
        assertViolation(back);
    }
}
