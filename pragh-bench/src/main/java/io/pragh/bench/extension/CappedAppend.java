package io.pragh.bench.extension;

import io.pragh.store.Mutators;
import io.pragh.store.ValueMutator;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A bounded edge insert, the benchmark's provider mutator {@link #ID}: appends an 8-byte neighbour to an adjacency list, run at
 * the value's host like any update, but once the list holds {@code cap} entries the newest insert overwrites the
 * previous one instead of growing it. A workload that keeps inserting into hot lists (the traversal benchmark's
 * edge PUTs) stays within memory this way: copy-on-write appends to a list that grows with every PUT leave ever
 * larger copies waiting out the reclaim lease, which filled the value region within seconds in the benchmark's
 * 50/50 mix. With the cap at one past the larger of the loaded degree and the traversal fanout, the neighbours a
 * traversal reads settle as they would under plain appends.
 *
 * <p>Registered by the bench server extension on every machine of a benchmark's server processes, and by the
 * benchmark on its embedded clusters; a store without it refuses the id ("unknown value mutator").
 *
 * <pre>{@code
 * EmbeddedCluster c = EmbeddedCluster.builder().mutator(CappedAppend.ID, new CappedAppend()).build();
 * c.homeOf(key).update(key, CappedAppend.ID, CappedAppend.argument(dst, cap));
 * }</pre>
 */
public final class CappedAppend implements ValueMutator {
    /**
     * Its mutator id, in the providers' range ({@link Mutators#FIRST_PROVIDER_ID} up): clear of the server's restore
     * mutator (16) and of the Gremlin front end's (32 up), which a benchmark's server processes register too.
     */
    public static final int ID = 24;

    /** Bytes of the argument: the neighbour (8), then the cap in entries (8). */
    public static final int ARGUMENT_BYTES = 16;

    /** The update's argument: the new neighbour, then the list's cap in entries. */
    public static byte[] argument(long neighbour, long cap) {
        byte[] b = new byte[ARGUMENT_BYTES];
        UnsafeBuffer buf = new UnsafeBuffer(b);
        buf.putLong(0, neighbour);
        buf.putLong(8, cap);
        return b;
    }

    @Override
    public int newLength(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen) {
        if (argLen != ARGUMENT_BYTES) {
            throw new IllegalArgumentException("CAPPED_APPEND takes " + ARGUMENT_BYTES + " bytes, got " + argLen);
        }
        if (curLen <= 0) {
            return Long.BYTES;
        }
        return curLen / Long.BYTES < arg.getLong(argOff + 8) ? curLen + Long.BYTES : curLen;
    }

    @Override
    public void write(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen,
                      MutableDirectBuffer dst, int dstOff) {
        int len = newLength(cur, curOff, curLen, arg, argOff, argLen);
        if (curLen > 0) {
            dst.putBytes(dstOff, cur, curOff, Math.min(curLen, len - Long.BYTES));
        }
        dst.putLong(dstOff + len - Long.BYTES, arg.getLong(argOff));
    }
}
