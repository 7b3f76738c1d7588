package io.pragh.store;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A read-modify-write of one value, run at the machine that hosts the value, which is what makes concurrent edge
 * inserts to one vertex safe: the new value is computed from the current one and installed by CAS, and a lost CAS
 * simply reruns the mutator on the newer value. Mutators must be pure functions of (current value, argument), the
 * same on every machine, and registered under the same id cluster-wide.
 *
 * <pre>{@code
 * ValueMutator append = new ValueMutator() {
 *     public int newLength(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen) {
 *         return Math.max(curLen, 0) + argLen;
 *     }
 *     public void write(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen,
 *                       MutableDirectBuffer dst, int dstOff) {
 *         if (curLen > 0) dst.putBytes(dstOff, cur, curOff, curLen);
 *         dst.putBytes(dstOff + Math.max(curLen, 0), arg, argOff, argLen);
 *     }
 * };
 * }</pre>
 */
public interface ValueMutator {
    /** Length of the value to delete the key. */
    int DELETE = -1;

    /**
     * Length of the new value given the current one ({@code curLen == -1}: the key has no value), or
     * {@link #DELETE}.
     */
    int newLength(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen);

    /** Writes exactly {@link #newLength} bytes of the new value at {@code dst[dstOff]}. */
    void write(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen,
               MutableDirectBuffer dst, int dstOff);

    /**
     * How many bytes this update appends to any current value, which it leaves unchanged before them, or -1 (the
     * default) when it may rewrite the value. An appending mutator's value can be grown in place, into the slack of
     * its record (see {@code ValueRecord}, "Appends in place"), and is given slack to grow into when it must move:
     * an edge insert then costs O(1) amortized instead of a copy of the whole list.
     */
    default int appendedLength(DirectBuffer arg, int argOff, int argLen) {
        return -1;
    }

    /** Writes the {@link #appendedLength} bytes this update appends at {@code dst[dstOff]}. */
    default void writeAppended(DirectBuffer arg, int argOff, int argLen, MutableDirectBuffer dst, int dstOff) {
        throw new UnsupportedOperationException(getClass().getName() + " does not append");
    }
}
