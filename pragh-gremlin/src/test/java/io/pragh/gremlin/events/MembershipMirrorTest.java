package io.pragh.gremlin.events;

import io.pragh.gremlin.storage.ViewRecords;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MembershipMirrorTest {
    private static long versions;

    private static void tap(final MembershipMirror mirror, final long vid, final byte[] arg) {
        tap(mirror, vid, ++versions, arg);
    }

    private static void tap(final MembershipMirror mirror, final long vid, final long version, final byte[] arg) {
        mirror.onCommit(ViewRecords.members(vid), version, ViewRecords.BITS, new UnsafeBuffer(arg), 0, arg.length,
            false);
    }

    @Test
    void updatesTappedWhileSeedingAreFoldedOverWhatTheScanRead() {
        try (PraghGraph graph = TestGraphs.open()) {
            // Stored: vertex 7 in views 1 and 2, vertex 8 in view 1.
            graph.store().update(ViewRecords.members(7), ViewRecords.BITS, ViewRecords.setBits(0b110));
            graph.store().update(ViewRecords.members(8), ViewRecords.BITS, ViewRecords.setBits(0b010));
            final MembershipMirror mirror = new MembershipMirror();
            // Tapped before the scan read them (committed, not yet visible to it, say): 7 leaves view 1, 9 joins 3.
            tap(mirror, 7, ViewRecords.clearBits(0b010));
            tap(mirror, 9, ViewRecords.setBits(0b1000));
            assertFalse(mirror.seeded());
            mirror.seed(graph.store());
            assertTrue(mirror.seeded());
            assertEquals(0b100, mirror.bits(7), "the scan's view 2 kept, the tapped leave applied over it");
            assertEquals(0b010, mirror.bits(8));
            assertEquals(0b1000, mirror.bits(9), "a record the scan did not see, built from its updates");
            tap(mirror, 8, ViewRecords.clearBits(0b010));
            assertEquals(0, mirror.bits(8), "after seeding, updates apply directly");
            assertEquals(0, mirror.bits(10), "no record: in no view");
        }
    }

    @Test
    void aVersionToldAgainAfterLaterOnesChangesNothing() {
        try (PraghGraph graph = TestGraphs.open()) {
            final MembershipMirror mirror = new MembershipMirror();
            mirror.seed(graph.store());
            tap(mirror, 7, 100, ViewRecords.setBits(0b10));
            tap(mirror, 7, 101, ViewRecords.clearBits(0b10));
            tap(mirror, 7, 100, ViewRecords.setBits(0b10)); // a durable home told of version 100 twice
            assertEquals(0, mirror.bits(7));
        }
    }
}
