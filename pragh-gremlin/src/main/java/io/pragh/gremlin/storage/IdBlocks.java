package io.pragh.gremlin.storage;

/**
 * The shared counter that hands out blocks of vertex, edge and vertex-property ids, so that graphs in different
 * processes (or two graphs over one store) never assign the same id. The stored value is
 * {@code | next (8) | claimant (16) | start of the claimant's block (8) |}; {@link #apply} is its read-modify-write at
 * the value's host. A claimant claims with a random token and then reads the value back: if its token is there, the
 * block starting at {@code start} is its own; if another claim came in between, it claims again (the lost block is
 * simply never used: ids are 44 bits). A user-supplied id raises {@code next} past it, so no later block holds it.
 *
 * <p>Example: {@code store.update(GraphKeys.idBlocks(), GraphMutations.ID_BLOCKS, IdBlocks.claim(hi, lo, 1024));}
 */
public final class IdBlocks {
    private static final int CLAIM = 1;
    private static final int ADVANCE = 2;
    private static final int RECORD_BYTES = 32;
    /** The first id a fresh store hands out. */
    public static final long FIRST_ID = 1;

    private IdBlocks() {
    }

    /** The argument that claims {@code size} ids for the claimant {@code (tokenHigh, tokenLow)}. */
    public static byte[] claim(final long tokenHigh, final long tokenLow, final long size) {
        return new ByteWriter(25).putByte(CLAIM).putLong(tokenHigh).putLong(tokenLow).putLong(size).toByteArray();
    }

    /** The argument that makes every later block start at {@code id} or above. */
    public static byte[] advanceTo(final long id) {
        return new ByteWriter(9).putByte(ADVANCE).putLong(id).toByteArray();
    }

    /** The block start in {@code record} when {@code (tokenHigh, tokenLow)} made the last claim, else -1. */
    public static long claimedBy(final byte[] record, final long tokenHigh, final long tokenLow) {
        if (record == null || record.length != RECORD_BYTES) {
            return -1;
        }
        final ByteReader r = new ByteReader(record);
        r.getLong();
        return r.getLong() == tokenHigh && r.getLong() == tokenLow ? r.getLong() : -1;
    }

    /** The read-modify-write: a claim moves {@code next} on by its size, an advance raises it. */
    public static byte[] apply(final byte[] current, final byte[] argument) {
        long next = FIRST_ID;
        long high = 0;
        long low = 0;
        long start = -1;
        if (current != null) {
            if (current.length != RECORD_BYTES) {
                throw new CorruptRecordException("id block record of " + current.length + " bytes");
            }
            final ByteReader c = new ByteReader(current);
            next = c.getLong();
            high = c.getLong();
            low = c.getLong();
            start = c.getLong();
        }
        final ByteReader a = new ByteReader(argument);
        final int op = a.getByte();
        if (op == CLAIM) {
            high = a.getLong();
            low = a.getLong();
            start = next;
            next += a.getLong();
        } else if (op == ADVANCE) {
            next = Math.max(next, a.getLong());
        } else {
            throw new CorruptRecordException("unknown id block operation " + op);
        }
        return new ByteWriter(RECORD_BYTES).putLong(next).putLong(high).putLong(low).putLong(start).toByteArray();
    }
}
