package io.pragh.analytics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.collections.Long2LongHashMap;
import org.junit.jupiter.api.Test;

class VertexIndexTest {
    private static final long[] IDS = {7, 3, 7, 100, 3, 42, 8};

    private static void numbersInFirstSeenOrder(VertexIndex index) {
        for (long id : IDS) {
            index.number(id);
        }
        assertEquals(5, index.size());
        assertEquals(0, index.of(7));
        assertEquals(1, index.of(3));
        assertEquals(2, index.of(100));
        assertEquals(3, index.of(42));
        assertEquals(4, index.of(8));
        assertEquals(-1, index.of(9), "never numbered");
        assertEquals(-1, index.of(-5), "below the range");
        assertEquals(-1, index.of(Long.MAX_VALUE), "above the range");
        Long2LongHashMap map = index.toMap();
        assertEquals(5, map.size());
        assertEquals(2, map.get(100));
    }

    @Test
    void idsInANarrowRangeAreNumberedInAnArrayInFirstSeenOrder() {
        VertexIndex index = VertexIndex.forRange(3, 100, 7);
        assertTrue(index.isDense(), "98 slots for 7 vertices is within the slack");
        numbersInFirstSeenOrder(index);
    }

    @Test
    void idsSpreadWideAreNumberedInAHashMapTheSameWay() {
        VertexIndex index = VertexIndex.forRange(3, 100, 2);
        assertFalse(index.isDense(), "98 slots for 2 vertices is beyond the slack");
        numbersInFirstSeenOrder(index);
        assertFalse(VertexIndex.forRange(Long.MIN_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE).isDense(),
            "a range wider than a long");
        assertFalse(VertexIndex.forRange(0, VertexIndex.MAX_DENSE, Integer.MAX_VALUE).isDense(), "too large a table");
    }
}
