package io.pragh.server.node;

import io.pragh.store.ValueMutator;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Installs a value only where the key has none. Recovery once put lost values back through it (reset the address
 * word, then this update), which left a window where an APPEND started from an empty list; it now uses
 * {@link io.pragh.store.MachineStore#restore}, one CAS. The mutator stays registered under {@link #ID} on every
 * machine of a server cluster so that write-ahead logs written by that older recovery still replay.
 *
 * <pre>{@code
 * mutators.register(RestoreMutator.ID, new RestoreMutator());
 * store.update(key, RestoreMutator.ID, new UnsafeBuffer(durable), 0, durable.length);
 * }</pre>
 */
public final class RestoreMutator implements ValueMutator {
    /** The first provider id: the server registers no other mutator. */
    public static final int ID = io.pragh.store.Mutators.FIRST_PROVIDER_ID;

    @Override
    public int newLength(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen) {
        return curLen >= 0 ? curLen : argLen;
    }

    @Override
    public void write(DirectBuffer cur, int curOff, int curLen, DirectBuffer arg, int argOff, int argLen,
                      MutableDirectBuffer dst, int dstOff) {
        if (curLen >= 0) {
            dst.putBytes(dstOff, cur, curOff, curLen);
        } else {
            dst.putBytes(dstOff, arg, argOff, argLen);
        }
    }
}
