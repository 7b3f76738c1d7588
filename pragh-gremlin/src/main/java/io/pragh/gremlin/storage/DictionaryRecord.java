package io.pragh.gremlin.storage;

import java.nio.charset.StandardCharsets;

/**
 * The shared name dictionary as one stored value that only ever grows: a sequence of entries, each a name (whose id
 * is its position among names, from 1) or the mark that an id is used as an edge label. {@link #add} is the
 * read-modify-write the store runs at the value's host, so every process that interns a name through it agrees on
 * its id; since the value only grows, its length tells a reader whether anything is new since it last looked.
 *
 * <pre>
 *  entry: | NAME (1) | length (2) | UTF-8 bytes |   or   | EDGE_LABEL (1) | id (2) |
 * </pre>
 *
 * <p>Example: {@code byte[] rec = DictionaryRecord.add(null, DictionaryRecord.name("knows")); // "knows" is id 1}
 */
public final class DictionaryRecord {
    static final int NAME = 1;
    static final int EDGE_LABEL = 2;
    /** Longest name in UTF-8 bytes (its length is a 16-bit field). */
    public static final int MAX_NAME_BYTES = 0xFFFF;

    private DictionaryRecord() {
    }

    /** Receives the entries of a record, in order. */
    public interface Visitor {
        /** A name: its id is one more than the number of names before it. */
        void name(String name);

        /** An id that some edge carries as its label. */
        void edgeLabel(int id);
    }

    /** The entry that adds {@code name}. */
    public static byte[] name(final String name) {
        final byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("a label or property key of " + utf8.length + " UTF-8 bytes is"
                + " longer than the " + MAX_NAME_BYTES + " a dictionary entry holds");
        }
        return new ByteWriter(3 + utf8.length).putByte(NAME).putShort(utf8.length).putBytes(utf8).toByteArray();
    }

    /** The entry that marks {@code id} as an edge label. */
    public static byte[] edgeLabel(final int id) {
        return new ByteWriter(3).putByte(EDGE_LABEL).putShort(id).toByteArray();
    }

    /**
     * The record with {@code entry} appended unless an equal entry is there already (so adding a name twice, from
     * two processes at once, gives it one id), and unless it would be name number {@code GraphKeys.MAX_LABEL + 1}
     * (the caller then finds its name missing and reports the dictionary full).
     */
    public static byte[] add(final byte[] current, final byte[] entry) {
        if (current == null) {
            return entry.clone();
        }
        final int[] names = {0};
        final boolean[] present = {false};
        final boolean isName = entry[0] == NAME;
        final String wanted = isName ? new String(entry, 3, entry.length - 3, StandardCharsets.UTF_8) : null;
        final int wantedId = isName ? -1 : new ByteReader(entry, 1, 2).getShort();
        read(current, 0, new Visitor() {
            @Override
            public void name(final String name) {
                names[0]++;
                present[0] |= isName && name.equals(wanted);
            }

            @Override
            public void edgeLabel(final int id) {
                present[0] |= !isName && id == wantedId;
            }
        });
        if (present[0] || (isName && names[0] >= GraphKeys.MAX_LABEL)) {
            return current;
        }
        return new ByteWriter(current.length + entry.length).putBytes(current).putBytes(entry).toByteArray();
    }

    /** Visits the entries of {@code record} from byte {@code from} (the end of what was read before) on. */
    public static void read(final byte[] record, final int from, final Visitor visitor) {
        final ByteReader r = new ByteReader(record, from, record.length - from);
        while (r.hasRemaining()) {
            final int type = r.getByte();
            if (type == NAME) {
                visitor.name(new String(r.getBytes(r.getShort()), StandardCharsets.UTF_8));
            } else if (type == EDGE_LABEL) {
                visitor.edgeLabel(r.getShort());
            } else {
                throw new CorruptRecordException("dictionary entry of unknown type " + type + " at byte "
                    + (r.position() - 1));
            }
        }
    }
}
