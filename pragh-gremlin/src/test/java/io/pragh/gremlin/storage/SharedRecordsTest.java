package io.pragh.gremlin.storage;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The read-modify-writes of the shared dictionary and id counter, as the store runs them at the value's host. */
class SharedRecordsTest {
    private static List<String> read(final byte[] record) {
        final List<String> out = new ArrayList<>();
        DictionaryRecord.read(record, 0, new DictionaryRecord.Visitor() {
            @Override
            public void name(final String name) {
                out.add(name);
            }

            @Override
            public void edgeLabel(final int id) {
                out.add("edge:" + id);
            }
        });
        return out;
    }

    @Test
    void addingAnEntryTwiceKeepsOneSoEveryWriterGetsTheSameId() {
        byte[] r = DictionaryRecord.add(null, DictionaryRecord.name("knows"));
        r = DictionaryRecord.add(r, DictionaryRecord.name("name"));
        final byte[] again = DictionaryRecord.add(r, DictionaryRecord.name("knows"));
        assertSame(r, again, "a name already there leaves the record as it is");
        r = DictionaryRecord.add(r, DictionaryRecord.edgeLabel(1));
        assertSame(r, DictionaryRecord.add(r, DictionaryRecord.edgeLabel(1)));
        r = DictionaryRecord.add(r, DictionaryRecord.name("\u00e9t\u00e9"));
        assertEquals(List.of("knows", "name", "edge:1", "\u00e9t\u00e9"), read(r));
    }

    @Test
    void aFullDictionaryTakesNoMoreNames() {
        // MAX_LABEL one-byte names, built directly (adding them one by one would be quadratic).
        final byte[] full = new byte[GraphKeys.MAX_LABEL * 4];
        for (int i = 0; i < GraphKeys.MAX_LABEL; i++) {
            full[4 * i] = DictionaryRecord.NAME;
            full[4 * i + 1] = 1; // length 1, little-endian as ByteWriter writes it
            full[4 * i + 2] = 0;
            full[4 * i + 3] = (byte) i;
        }
        assertSame(full, DictionaryRecord.add(full, DictionaryRecord.name("one-too-many")));
        assertThrows(CorruptRecordException.class, () -> read(new byte[] {9}));
    }

    @Test
    void claimsHandOutDisjointBlocksAndAnAdvanceMovesLaterBlocksPastAnId() {
        byte[] r = IdBlocks.apply(null, IdBlocks.claim(1, 1, 100));
        assertEquals(IdBlocks.FIRST_ID, IdBlocks.claimedBy(r, 1, 1));
        assertEquals(-1, IdBlocks.claimedBy(r, 2, 2), "another claimant does not own this block");
        r = IdBlocks.apply(r, IdBlocks.claim(2, 2, 100));
        assertEquals(IdBlocks.FIRST_ID + 100, IdBlocks.claimedBy(r, 2, 2));
        assertEquals(-1, IdBlocks.claimedBy(r, 1, 1), "a later claim hides the earlier one's token");
        r = IdBlocks.apply(r, IdBlocks.advanceTo(5_000));
        r = IdBlocks.apply(r, IdBlocks.advanceTo(10)); // never moves back
        r = IdBlocks.apply(r, IdBlocks.claim(3, 3, 100));
        assertEquals(5_000, IdBlocks.claimedBy(r, 3, 3));
    }
}
