package io.pragh.analytics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class VertexSetTest {
    @Test
    void holdsDenseAndSparseIdsAlikeAndCountsEachOnce() {
        VertexSet set = new VertexSet();
        assertTrue(set.isEmpty());
        long[] ids = {0, 63, 64, 5_000_000, VertexSet.DENSE_LIMIT - 1, VertexSet.DENSE_LIMIT, -1, Long.MIN_VALUE,
            Long.MAX_VALUE};
        for (long id : ids) {
            assertFalse(set.contains(id), id + " before");
            assertTrue(set.add(id), id + " added");
            assertFalse(set.add(id), id + " added again");
            assertTrue(set.contains(id), id + " after");
        }
        assertEquals(ids.length, set.size());
        for (long absent : new long[] {1, 62, 65, 4_999_999, VertexSet.DENSE_LIMIT + 1, -2, 1L << 40}) {
            assertFalse(set.contains(absent), absent + " was never added");
        }
    }
}
