package io.pragh.tier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WorkingSetPartitionTest {
    private static final TieringConfig CONFIG = TieringConfig.defaults().withHotAccesses(8).withWarmKeptLocal(0.5);

    @Test
    void coldGoesBeforeWarmAndReadOnlyBeforeWrittenUntilWithinBudget() {
        ValueCensus c = new ValueCensus();
        c.addLocal(1, 100, 3, true);     // warm, read-only
        c.addLocal(2, 100, 0, false);    // cold, written
        c.addLocal(3, 100, 20, true);    // hot
        c.addLocal(4, 100, 0, true);     // cold, read-only
        c.addLocal(5, 100, 2, false);    // warm, written
        WorkingSetPartition p = WorkingSetPartition.plan(c, CONFIG.withLocalBudgetBytes(150));
        assertEquals(4, p.demote().size());
        assertEquals(4, p.demote().getLong(0));
        assertEquals(2, p.demote().getLong(1));
        assertEquals(1, p.demote().getLong(2));
        assertEquals(5, p.demote().getLong(3));
        assertEquals(100, p.localAfter());
        assertEquals(0, p.promote().size());
    }

    @Test
    void withinBudgetNothingGoesOutAndUnboundedMovesNothing() {
        ValueCensus c = new ValueCensus();
        c.addLocal(1, 100, 0, true);
        c.addFar(2, 100, 20);
        assertEquals(0, WorkingSetPartition.plan(c, CONFIG).demote().size());
        assertEquals(0, WorkingSetPartition.plan(c, CONFIG).promote().size(), "no budget: tiering is off");
        WorkingSetPartition p = WorkingSetPartition.plan(c, CONFIG.withLocalBudgetBytes(100));
        assertEquals(1, p.promote().size(), "a hot far value comes back when a cold one can make room");
        assertEquals(1, p.demote().size());
        assertEquals(1, p.demote().getLong(0));
        assertTrue(p.localAfter() <= 100);
    }

    @Test
    void aHotValueNeverPushesOutAnotherHotOne() {
        ValueCensus c = new ValueCensus();
        c.addLocal(1, 100, 50, true);
        c.addFar(2, 100, 90);
        WorkingSetPartition p = WorkingSetPartition.plan(c, CONFIG.withLocalBudgetBytes(100));
        assertEquals(0, p.promote().size());
        assertEquals(0, p.demote().size());
    }

    @Test
    void farWarmValuesComeBackUpToTheShareKeptLocalWhenThereIsRoom() {
        ValueCensus c = new ValueCensus();
        for (int k = 0; k < 4; k++) {
            c.addFar(10 + k, 100, 1 + k);  // warm, the most read first
        }
        WorkingSetPartition p = WorkingSetPartition.plan(c, CONFIG.withLocalBudgetBytes(1_000));
        assertEquals(2, p.promote().size(), "half of 400 warm bytes kept local");
        assertEquals(13, p.promote().getLong(0));
        assertEquals(12, p.promote().getLong(1));
        WorkingSetPartition tight = WorkingSetPartition.plan(c, CONFIG.withLocalBudgetBytes(100));
        assertEquals(1, tight.promote().size(), "and only what fits the budget");
    }
}
