package io.pragh.store;

import org.agrona.DirectBuffer;

/**
 * Where a machine makes the applied updates of the keys it is home to durable (its write-ahead log). The store calls
 * {@link #append} at the key's home after the update took effect, with the version the update produced, and
 * acknowledges the update's origin only when the log calls {@link MachineStore#acknowledge} once the record is as
 * durable as its policy promises (or {@link MachineStore#refuse} when it cannot be). The origin and request it is
 * given may be the home's own (which then makes the update's new record readable and answers the update's origin),
 * and the same version may be appended again when its host sent the LOG again: recovery applies it once. Appends may come from several threads; acknowledgements may come from any thread.
 */
public interface UpdateLog {
    void append(long key, long version, int mutatorId, DirectBuffer arg, int argOff, int argLen, int origin,
                long request);

    /**
     * Appends the record of a {@link MachineStore#restore}: a log that knows restores refuses, from this record on,
     * the key's records below its version (updates the restored value does not hold); by default a plain append.
     */
    default void appendRestore(long key, long version, int mutatorId, DirectBuffer arg, int argOff, int argLen,
                               int origin, long request) {
        append(key, version, mutatorId, arg, argOff, argLen, origin, request);
    }

    /**
     * What the log has not written yet, in words, for a report of a home's own record left pending (an update refused
     * behind it): whether its records wait in the log and, if so, where the log's thread is. Empty by default.
     */
    default String backlog() {
        return "";
    }
}
