package io.pragh.server.node;

import io.pragh.store.ValueMutator;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Installs a value only where the key has none: how a home puts back, from its own log, a value that was lost with
 * the machine it had migrated to. If an update got in first (the key was briefly without a value), the newer value
 * stays. Registered under {@link #ID} on every machine of a server cluster, so that logs that hold it replay
 * anywhere.
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
