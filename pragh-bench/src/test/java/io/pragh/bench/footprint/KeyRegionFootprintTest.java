package io.pragh.bench.footprint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.keys.KeyRegion;
import org.junit.jupiter.api.Test;

class KeyRegionFootprintTest {
    @Test
    void aRegionHoldsAtLeastTheKeysItWasConfiguredForAndItsBytesFollowItsBuckets() {
        KeyRegionFootprint.Row row = KeyRegionFootprint.measure(10_000);
        assertTrue(row.keysAtFull() >= 10_000, "held only " + row.keysAtFull() + " keys");
        assertEquals(0, row.bucketBytes() % KeyRegion.BUCKET_BYTES, "whole buckets");
        assertTrue(row.allocatedBytes() >= row.bucketBytes(), "allocation covers the buckets");
        assertEquals((double) row.allocatedBytes() / 10_000, row.allocatedBytesPerKey(), 1e-9);
    }
}
