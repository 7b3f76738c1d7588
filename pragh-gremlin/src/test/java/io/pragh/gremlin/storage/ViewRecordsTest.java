package io.pragh.gremlin.storage;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class ViewRecordsTest {
    @Test
    void catalogGivesTheLowestFreeNumberAndReusesADroppedOne() {
        byte[] c = ViewRecords.applyCatalog(null, ViewRecords.createView("a"));
        c = ViewRecords.applyCatalog(c, ViewRecords.createView("b"));
        c = ViewRecords.applyCatalog(c, ViewRecords.createView("a")); // present: unchanged
        assertEquals(Map.of("a", 0, "b", 1), ViewRecords.catalog(c));
        c = ViewRecords.applyCatalog(c, ViewRecords.dropView("a"));
        c = ViewRecords.applyCatalog(c, ViewRecords.createView("c"));
        assertEquals(Map.of("c", 0, "b", 1), ViewRecords.catalog(c));
    }

    @Test
    void aFullCatalogIsLeftUnchanged() {
        byte[] c = null;
        for (int i = 0; i < ViewRecords.MAX_VIEWS; i++) {
            c = ViewRecords.applyCatalog(c, ViewRecords.createView("v" + i));
        }
        assertSame(c, ViewRecords.applyCatalog(c, ViewRecords.createView("one-too-many")));
        assertEquals(ViewRecords.MAX_VIEWS, ViewRecords.catalog(c).size());
    }

    @Test
    void clearingTheLastMembershipBitDeletesTheRecord() {
        byte[] bits = ViewRecords.applyBits(null, ViewRecords.setBits(1L << 63 | 1L));
        assertEquals(1L << 63 | 1L, ViewRecords.bits(bits));
        bits = ViewRecords.applyBits(bits, ViewRecords.clearBits(1L));
        assertEquals(1L << 63, ViewRecords.bits(bits));
        assertNull(ViewRecords.applyBits(bits, ViewRecords.clearBits(1L << 63)));
    }

    @Test
    void propertyRecordsSetReplaceAndRemoveOneName() {
        byte[] p = ViewRecords.applyProperty(null, ViewRecords.property("speed", 42));
        p = ViewRecords.applyProperty(p, ViewRecords.property("name", "I-280"));
        p = ViewRecords.applyProperty(p, ViewRecords.property("speed", 55L));
        assertEquals(Map.of("speed", 55L, "name", "I-280"), ViewRecords.properties(p));
        p = ViewRecords.applyProperty(p, ViewRecords.property("speed", null));
        p = ViewRecords.applyProperty(p, ViewRecords.property("name", null));
        assertNull(p);
    }
}
