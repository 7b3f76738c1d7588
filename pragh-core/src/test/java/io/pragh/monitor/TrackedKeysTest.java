package io.pragh.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.keys.KeyLayout;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TrackedKeysTest {
    private static long key(long vid) {
        return KeyLayout.key(vid, 1, KeyLayout.OUT);
    }

    @Test
    void addedKeysAreFoundAndRemovedOnesAreNot() {
        TrackedKeys t = new TrackedKeys();
        for (long v = 0; v < 10_000; v++) {
            assertTrue(t.add(key(v)));
        }
        assertFalse(t.add(key(7)), "a key added twice is there once");
        assertEquals(10_000, t.size());
        for (long v = 0; v < 10_000; v += 2) {
            assertTrue(t.remove(key(v)));
        }
        assertFalse(t.remove(key(0)), "a key removed twice is removed once");
        assertEquals(5_000, t.size());
        for (long v = 0; v < 10_000; v++) {
            assertEquals(v % 2 == 1, t.contains(key(v)), "key of vid " + v);
        }
        assertFalse(t.contains(key(10_000)));
    }

    @Test
    void aKeyRemovedAndAddedAgainIsFoundAndSlotsOfRemovedKeysAreReused() {
        TrackedKeys t = new TrackedKeys();
        // Many more adds and removes than the table has slots: removed slots are reused or dropped by a rebuild,
        // never left to fill the table (a probe must always end on a free slot, or contains would not return).
        for (int round = 0; round < 1_000; round++) {
            for (long v = 0; v < 64; v++) {
                t.add(key(round * 64L + v));
            }
            for (long v = 0; v < 64; v++) {
                assertTrue(t.remove(key(round * 64L + v)));
            }
        }
        assertEquals(0, t.size());
        assertFalse(t.contains(key(5)));
        t.add(key(5));
        t.remove(key(5));
        t.add(key(5));
        assertTrue(t.contains(key(5)));
    }

    @Test
    void theTwoMarkersAreRefusedAsKeys() {
        TrackedKeys t = new TrackedKeys();
        assertThrows(IllegalArgumentException.class, () -> t.add(TrackedKeys.FREE));
        assertThrows(IllegalArgumentException.class, () -> t.add(TrackedKeys.REMOVED));
        assertFalse(t.contains(TrackedKeys.FREE));
        assertFalse(t.remove(TrackedKeys.REMOVED));
    }

    /**
     * Readers never miss a key that stays in the set while the writer adds and removes others, through many
     * rebuilds: a removed slot made free again, or a table published before it is filled, would make a reader miss.
     */
    @Test
    void keysThatStayAreAlwaysFoundWhileOthersComeAndGo() throws Exception {
        TrackedKeys t = new TrackedKeys();
        int stay = 256;
        for (long v = 0; v < stay; v++) {
            t.add(key(v));
        }
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong misses = new AtomicLong();
        AtomicLong probes = new AtomicLong();
        Thread[] readers = new Thread[2];
        for (int r = 0; r < readers.length; r++) {
            readers[r] = new Thread(() -> {
                long v = 0;
                while (!done.get()) {
                    if (!t.contains(key(v))) {
                        misses.incrementAndGet();
                    }
                    probes.incrementAndGet();
                    v = (v + 1) % stay;
                }
            });
            readers[r].start();
        }
        long next = stay;
        for (int round = 0; round < 200 || probes.get() < 100_000; round++) {
            long first = next;
            for (int i = 0; i < 2_000; i++) {
                t.add(key(next++));
            }
            for (long v = first; v < next; v++) {
                t.remove(key(v));
            }
        }
        done.set(true);
        for (Thread r : readers) {
            r.join();
        }
        assertEquals(0, misses.get(), "lookups of keys never removed that missed, of " + probes.get());
        assertEquals(stay, t.size());
    }
}
