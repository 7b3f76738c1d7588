package io.pragh.bench.soak;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.chaos.ChaosWorkload;
import io.pragh.linearizability.Operation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The soak's own path, short: windows recorded, split between two checkers by key, checked, added up and printed.
 * A calm run finds nothing; the same run with a stale read planted in one window must report it, with the key's
 * history: the soak's "0 violations" comes from a check that can fail.
 */
class SoakTest {
    private static SoakConfig tiny() {
        return SoakConfig.parse(new String[] {"--minutes", "0.1", "--keys", "64", "--clients", "4",
            "--window-seconds", "1", "--checkers", "2", "--faults", "off", "--seed", "3"});
    }

    @Test
    void aCalmRunChecksItsOperationsAndFindsNoViolation() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Soak.Totals t = new Soak(tiny(), new PrintStream(out, true, StandardCharsets.UTF_8)).run();
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(t.windows >= 1 && t.operations > 100 && t.checked > 100, printed);
        // Every operation counted once, in its own window, though the next window's check looks at some again.
        assertTrue(t.checked <= t.operations, printed);
        assertFalse(t.violated(), printed);
        assertTrue(printed.contains("operations checked") && printed.contains("peak superseded bytes"), printed);
    }

    @Test
    void aStaleReadPlantedInAWindowIsReportedWithItsKeysHistory() throws Exception {
        AtomicLong planted = new AtomicLong(-1);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Soak.Totals t = new Soak(tiny(), new PrintStream(out, true, StandardCharsets.UTF_8),
            w -> planted.get() >= 0 ? w : plantStaleRead(w, planted)).run();
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(planted.get() >= 0, "no key had two acknowledged PUTs in a row to plant a stale read after: "
            + printed);
        assertTrue(t.violated(), printed);
        assertEquals(1, t.violations, printed);
        assertTrue(t.violatedKeys.contains(planted.get()), "the planted key " + planted.get() + " is not the one"
            + " reported: " + printed);
        assertNotNull(t.firstViolation, printed);
        assertTrue(printed.contains("first violation: window") && printed.contains("key " + planted.get()), printed);
    }

    /**
     * The window with one more GET: after two acknowledged PUTs of a key, one after the other, a read returning the
     * first one's value (no linearization can bring it back).
     */
    private static ChaosWorkload.Window plantStaleRead(ChaosWorkload.Window w, AtomicLong planted) {
        Map<Long, List<Operation>> puts = new HashMap<>();
        for (Operation op : w.ops()) {
            if (op.kind() == Operation.Kind.PUT && op.completed()) {
                puts.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
            }
        }
        for (Map.Entry<Long, List<Operation>> e : puts.entrySet()) {
            List<Operation> ps = e.getValue();
            ps.sort(Comparator.comparingLong(Operation::invoke));
            for (int i = 0; i + 1 < ps.size(); i++) {
                Operation first = ps.get(i);
                Operation second = ps.get(i + 1);
                if (first.response() < second.invoke()) {
                    long at = second.response() + 1;
                    List<Operation> ops = new ArrayList<>(w.ops());
                    ops.add(Operation.get(99, e.getKey(), first.input(), at, at + 1));
                    planted.set(e.getKey());
                    return new ChaosWorkload.Window(w.index(), ops, w.barrierReads(), w.problems(),
                        w.unreadableKeys(), w.failures(), w.failureExamples(), w.shunnedKeys(), w.migrations(),
                        w.faults(), w.peakSupersededBytes(), w.stopMillis(), w.barrierMillis(), w.elapsedMillis());
                }
            }
        }
        return w;
    }
}
