package io.pragh.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.LimitExceededException;
import io.pragh.address.Address;
import java.util.HashMap;
import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class KeyRegionTest {
    private static long key(long vid) {
        return KeyLayout.key(vid, 0, KeyLayout.VERTEX);
    }

    @Test
    void insertedKeysAreFoundWithTheirAddresses() {
        try (KeyRegion keys = new KeyRegion(1000, 1 << 20)) {
            Map<Long, Long> slots = new HashMap<>();
            for (long v = 0; v < 1000; v++) {
                long slot = keys.findOrInsert(key(v));
                assertTrue(keys.compareAndSetAddress(slot, Address.NONE, Address.local(2, 1, v + 1)));
                slots.put(key(v), slot);
            }
            assertEquals(1000, keys.size());
            for (long v = 0; v < 1000; v++) {
                assertEquals(slots.get(key(v)), keys.find(key(v)));
                assertEquals(Address.local(2, 1, v + 1), keys.address(keys.find(key(v))));
                assertEquals(slots.get(key(v)), keys.findOrInsert(key(v)), "a second insert finds the same slot");
            }
            assertEquals(-1, keys.find(key(5000)));
        }
    }

    @Test
    void collidingKeysChainIntoOverflowBucketsAndAreStillFound() {
        try (KeyRegion keys = new KeyRegion(16, 1 << 20)) {
            long first = keys.homeBucketOffset(key(0));
            long[] same = new long[KeyRegion.KEY_SLOTS * 3];
            int n = 0;
            for (long v = 1; n < same.length; v++) {
                if (keys.homeBucketOffset(key(v)) == first) {
                    same[n++] = key(v);
                }
            }
            for (long k : same) {
                keys.compareAndSetAddress(keys.findOrInsert(k), Address.NONE, Address.local(2, 1, 7));
            }
            int inOverflow = 0;
            for (long k : same) {
                long slot = keys.find(k);
                assertTrue(slot >= 0);
                if (slot >= (long) keys.mainBuckets() * KeyRegion.BUCKET_BYTES) {
                    inOverflow++;
                }
            }
            assertEquals(same.length - KeyRegion.KEY_SLOTS, inOverflow, "the chain spilled into overflow buckets");
        }
    }

    @Test
    void aRemoteReaderFindsAKeyInACopyOfItsBucketChain() {
        try (KeyRegion keys = new KeyRegion(16, 1 << 20)) {
            long first = keys.homeBucketOffset(key(0));
            long last = 0;
            int n = 0;
            for (long v = 1; n < KeyRegion.KEY_SLOTS + 2; v++) {
                if (keys.homeBucketOffset(key(v)) == first) {
                    keys.compareAndSetAddress(keys.findOrInsert(key(v)), Address.NONE, Address.local(3, 1, v));
                    last = v;
                    n++;
                }
            }
            UnsafeBuffer copy = new UnsafeBuffer(new byte[KeyRegion.BUCKET_BYTES]);
            long bucket = keys.homeBucketOffset(key(last));
            int reads = 0;
            long found = -1;
            while (bucket >= 0 && found < 0) {
                keys.region().getBytes(bucket, copy, 0, KeyRegion.BUCKET_BYTES);
                reads++;
                int at = KeyRegion.findInBucket(copy, 0, key(last));
                if (at >= 0) {
                    found = copy.getLong(at);
                }
                bucket = KeyRegion.overflowOf(copy, 0, keys.mainBuckets());
            }
            assertEquals(Address.local(3, 1, last), found);
            assertEquals(2, reads, "the 9th colliding key sits in the first overflow bucket");
        }
    }

    @Test
    void aFullRegionRefusesNewKeysNamingTheLimitAndKeepsTheOldOnes() {
        try (KeyRegion keys = new KeyRegion(16, 1 << 20)) {
            long inserted = 0;
            LimitExceededException e = null;
            try {
                for (long v = 0; v < keys.slotCapacity() + 10; v++) {
                    keys.compareAndSetAddress(keys.findOrInsert(key(v)), Address.NONE, Address.local(2, 1, 1));
                    inserted++;
                }
            } catch (LimitExceededException ex) {
                e = ex;
            }
            assertTrue(e != null && e.getMessage().contains("key region is full"), String.valueOf(e));
            for (long v = 0; v < inserted; v++) {
                assertTrue(keys.find(key(v)) >= 0, "key " + v + " survived the refusal");
            }
            assertEquals(inserted, keys.size());
        }
    }

    @Test
    void prunedSlotsAreReused() {
        try (KeyRegion keys = new KeyRegion(16, 1 << 20)) {
            long slot = keys.findOrInsert(key(1));
            keys.compareAndSetAddress(slot, Address.NONE, Address.local(2, 1, 5));
            assertFalse(keys.prune(key(1)), "a key with a value is not pruned");
            keys.compareAndSetAddress(slot, Address.local(2, 1, 5), Address.NONE);
            assertTrue(keys.prune(key(1)));
            assertEquals(-1, keys.find(key(1)));
            assertEquals(0, keys.size());
            long again = -1;
            for (long v = 2; again != slot; v++) {
                if (keys.homeBucketOffset(key(v)) == keys.homeBucketOffset(key(1))) {
                    again = keys.findOrInsert(key(v));
                }
            }
            assertEquals(slot, again, "the freed slot is the first one a colliding key claims");
        }
    }

    @Test
    void anInsertRacingAPruneNeverLeavesAValueUnderAClearedKey() throws Exception {
        try (KeyRegion keys = new KeyRegion(16, 1 << 20)) {
            long k = key(1);
            java.util.concurrent.atomic.AtomicLong acknowledged = new java.util.concurrent.atomic.AtomicLong();
            java.util.concurrent.atomic.AtomicLong unreachable = new java.util.concurrent.atomic.AtomicLong();
            Runnable cycle = () -> {
                for (int i = 1; i <= 20_000; i++) {
                    long address = Address.local(2, 1, i);
                    long slot = keys.insert(k, address, keys::compareAndSetAddress);
                    if (slot >= 0) {
                        acknowledged.incrementAndGet();
                        // Only this thread removes this value, so right now the key must lead to it.
                        if (keys.find(k) != slot) {
                            unreachable.incrementAndGet();
                        }
                        // The "delete": clear the value, then prune the empty slot.
                        if (keys.compareAndSetAddress(slot, address, Address.NONE)) {
                            keys.prune(k);
                        }
                    }
                }
            };
            Thread a = new Thread(cycle);
            Thread b = new Thread(cycle);
            a.start();
            b.start();
            a.join();
            b.join();
            assertTrue(acknowledged.get() > 0);
            assertEquals(0, unreachable.get(), "acknowledged inserts whose key a concurrent prune had cleared");
            long bucket = keys.homeBucketOffset(k);
            for (int s = 0; s < KeyRegion.KEY_SLOTS; s++) {
                long slotKey = keys.region().getLongVolatile(bucket + (long) s * KeyRegion.SLOT_BYTES);
                long address = keys.region().getLongVolatile(bucket + (long) s * KeyRegion.SLOT_BYTES + 8);
                assertFalse(slotKey == 0 && address != Address.NONE,
                    "slot " + s + " holds a value under a cleared key: an acknowledged insert became unreachable");
            }
            long slot = keys.find(k);
            assertTrue(slot < 0 || keys.address(slot) == Address.NONE || keys.region().getLongVolatile(slot - 8) == k);
        }
    }

    @Test
    void forEachVisitsOnlyKeysWithValues() {
        try (KeyRegion keys = new KeyRegion(100, 1 << 20)) {
            for (long v = 0; v < 50; v++) {
                long slot = keys.findOrInsert(key(v));
                if (v % 2 == 0) {
                    keys.compareAndSetAddress(slot, Address.NONE, Address.local(2, 1, v + 1));
                }
            }
            long[] count = {0};
            keys.forEach((k, a, s) -> {
                assertEquals(0, KeyLayout.vid(k) % 2);
                count[0]++;
            });
            assertEquals(25, count[0]);
        }
    }

    @Test
    void keyLayoutSeparatesVidLabelAndKind() {
        long k = KeyLayout.key(KeyLayout.MAX_VID, KeyLayout.MAX_LABEL, KeyLayout.MAX_KIND);
        assertEquals(KeyLayout.MAX_VID, KeyLayout.vid(k));
        assertEquals(KeyLayout.MAX_LABEL, KeyLayout.label(k));
        assertEquals(KeyLayout.MAX_KIND, KeyLayout.kind(k));
        assertThrows(LimitExceededException.class, () -> KeyLayout.key(KeyLayout.MAX_VID + 1, 0, 1));
        assertThrows(LimitExceededException.class, () -> KeyLayout.key(-1, 0, 1));
        assertThrows(LimitExceededException.class, () -> KeyLayout.key(1, KeyLayout.MAX_LABEL + 1, 1));
        assertThrows(IllegalArgumentException.class, () -> KeyLayout.key(1, 0, 0));
        assertTrue(KeyLayout.key(0, 0, 1) != 0, "no valid key is 0");
    }

    @Test
    void placementDependsOnlyOnTheVid() {
        Placement p = Placement.hashed(8);
        int[] perMachine = new int[8];
        for (long v = 0; v < 8000; v++) {
            int home = p.home(KeyLayout.key(v, 0, KeyLayout.VERTEX));
            assertEquals(home, p.home(KeyLayout.key(v, 17, KeyLayout.OUT)));
            assertEquals(home, p.home(KeyLayout.key(v, 3, KeyLayout.IN)));
            perMachine[home]++;
        }
        for (int n : perMachine) {
            assertTrue(n > 800 && n < 1200, "hash placement spreads sequential vids: " + n);
        }
    }
}
