package io.pragh.durability;

import java.util.HashMap;
import java.util.Map;

/**
 * The lowest version the log still accepts for each key its home is restoring or has restored (a value lost with
 * the machine that hosted it, put back from this log). A record below it is an update applied to the lost value,
 * or to one before it, whose LOG reached the home late: the restored value does not hold it and replay sorts it
 * under the restore, so it must be refused, never acknowledged.
 *
 * <p>A key is fenced (no record accepted) from before its durable value is read until its restore is logged, which
 * sets the floor to the restore's version; fencing in the log's own queue leaves no window in which a record could
 * slip between the read and the restore. Used by the log thread only; restores are rare, and so are entries. They
 * stay as long as the log, since nothing bounds how late a LOG may arrive.
 *
 * <pre>{@code
 * floors.fence(key);               // the home is about to read the key's durable value
 * floors.restored(key, version);   // the restore's record is being written
 * if (floors.refuses(key, v)) { ... refuse the record ... }
 * }</pre>
 */
final class RestoreFloors {
    private static final long FENCED = Long.MAX_VALUE;

    private final Map<Long, Long> floors = new HashMap<>();
    /** The floor a fenced key had before its fence (absent: none), put back when the restore does not happen. */
    private final Map<Long, Long> beforeFence = new HashMap<>();

    void fence(long key) {
        Long before = floors.put(key, FENCED);
        if (before != null && before != FENCED) {
            beforeFence.put(key, before);
        }
    }

    /** Ends a fence whose restore did not happen; a key restored meanwhile keeps its restore's floor. */
    void unfence(long key) {
        Long floor = floors.get(key);
        if (floor != null && floor == FENCED) {
            Long before = beforeFence.remove(key);
            if (before == null) {
                floors.remove(key);
            } else {
                floors.put(key, before);
            }
        }
    }

    void restored(long key, long version) {
        floors.put(key, version);
        beforeFence.remove(key);
    }

    boolean refuses(long key, long version) {
        if (floors.isEmpty()) {
            return false; // the usual case: nothing was ever restored here
        }
        Long floor = floors.get(key);
        return floor != null && version < floor;
    }

    /** Why a refused record of {@code key} was refused, for its origin. */
    String reason(long key, long version, int home) {
        long floor = floors.get(key);
        return "update of key " + key + " (version " + Long.toHexString(version) + ") did not take effect: the"
            + " machine hosting its value failed, and its home, machine " + home + ", "
            + (floor == FENCED ? "is restoring the key from its log"
                : "restored the key from its log at version " + Long.toHexString(floor))
            + " before this update reached the log";
    }
}
