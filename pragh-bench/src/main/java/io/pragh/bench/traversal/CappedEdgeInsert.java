package io.pragh.bench.traversal;

import io.pragh.store.ValueMutator;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The benchmark's edge PUT: appends a neighbour to an adjacency list, run at the value's host like any update, but
 * once the list holds {@code cap} entries the newest insert overwrites the previous one instead of growing it. With
 * the cap at one past the larger of the loaded degree and the fanout, the neighbours a two-hop reads settle as they
 * would under plain appends, while a hot list stops growing: copy-on-write appends to a list that grows with every
 * PUT leave ever larger copies waiting out the reclaim lease, which filled the value region within seconds in the
 * 50/50 mix.
 *
 * <pre>{@code
 * machine.update(key, CappedEdgeInsert.ID, CappedEdgeInsert.argument(dst, cap));
 * }</pre>
 */
final class CappedEdgeInsert implements ValueMutator {
    /** The first provider mutator id: the benchmark registers nothing else. */
    static final int ID = io.pragh.store.Mutators.FIRST_PROVIDER_ID;
    static final int ARGUMENT_BYTES = 16;

    /** The update's argument: the new neighbour, then the list's cap in entries. */
    static byte[] argument(long neighbour, long cap) {
        byte[] b = new byte[ARGUMENT_BYTES];
        UnsafeBuffer buf = new UnsafeBuffer(b);
        buf.putLong(0, neighbour);
        buf.putLong(8, cap);
        return b;
    }

    @Override
    public int newLength(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen) {
        if (argLen != ARGUMENT_BYTES) {
            throw new IllegalArgumentException("capped edge insert takes " + ARGUMENT_BYTES + " bytes, got " + argLen);
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
