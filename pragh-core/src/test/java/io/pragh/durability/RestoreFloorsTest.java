package io.pragh.durability;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RestoreFloorsTest {
    private static final long KEY = 42;
    private static final long OTHER = 43;

    @Test
    void aFencedKeyRefusesEveryVersionAndOnlyThatKey() {
        RestoreFloors f = new RestoreFloors();
        assertFalse(f.refuses(KEY, 5));
        f.fence(KEY);
        assertTrue(f.refuses(KEY, 5));
        assertTrue(f.refuses(KEY, Long.MAX_VALUE - 1));
        assertFalse(f.refuses(OTHER, 5));
        assertTrue(f.reason(KEY, 5, 1).contains("is restoring"));
    }

    @Test
    void aRestoreRefusesOnlyVersionsBelowItAndOutlivesTheFencesEnd() {
        RestoreFloors f = new RestoreFloors();
        f.fence(KEY);
        f.restored(KEY, 100);
        f.unfence(KEY);
        assertTrue(f.refuses(KEY, 99));
        assertFalse(f.refuses(KEY, 100));
        assertFalse(f.refuses(KEY, 101));
        assertTrue(f.reason(KEY, 99, 1).contains("at version 64"));
    }

    @Test
    void aFenceWhoseRestoreDidNotHappenPutsBackTheEarlierFloor() {
        RestoreFloors f = new RestoreFloors();
        f.fence(OTHER);
        f.unfence(OTHER);
        assertFalse(f.refuses(OTHER, 1), "no floor before the fence, none after");
        f.restored(KEY, 100);
        f.fence(KEY);
        assertTrue(f.refuses(KEY, 150));
        f.unfence(KEY);
        assertFalse(f.refuses(KEY, 150));
        assertTrue(f.refuses(KEY, 99), "the earlier restore's floor is back");
    }
}
