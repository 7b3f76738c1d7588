package io.pragh.monitor;

import io.pragh.keys.Hashing;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The keys a monitor counts local accesses of: one writer (the monitoring thread, under the monitor's lock) adds and
 * removes keys, any thread of the machine asks {@link #contains} on its GET path, without a lock and without
 * allocating. An open-addressing table of keys with linear probing, at most half full (removed slots included), so
 * a probe always ends on a free slot.
 *
 * <p>Why not a copy-on-write set: the coordinator asks a machine to track every key it approved in an interval, one
 * key at a time (a TRACK message each, on a cluster), and copying the whole set per key is quadratic: 131,072 keys
 * took the bench's control thread 2.5 minutes of a core on LUBM-16 (`bench rdf`, split-cache), all of it before the
 * interval's first migration was sent. Here a key costs one insert, and a table is copied only when it doubles.
 *
 * <p>Memory ordering: a slot goes from free to a key, from a key to {@link #REMOVED}, and from {@code REMOVED} back to a
 * key, each with a release store, and readers load slots with acquire loads; a removed key's slot is never made free
 * again, so a reader's probe never stops short of a key that is still there. A reader racing an add or a remove sees
 * the slot before or after it, which is as good as asking a moment earlier or later. A grown (or cleaned) table is
 * filled first and then published through the volatile {@link #slots} field, and the old one is never written again,
 * so a reader on either sees a consistent set.
 *
 * <pre>{@code
 * TrackedKeys t = new TrackedKeys();
 * t.add(key);             // writer
 * t.contains(key);        // any thread: true
 * t.remove(key);          // writer
 * }</pre>
 */
final class TrackedKeys {
    /** A slot never used. No key is 0 (key kind 0 is never used, see {@code KeyLayout}). */
    static final long FREE = 0;
    /** A slot whose key was removed; kind 0 as well, so no key either. */
    static final long REMOVED = Long.MIN_VALUE;
    private static final int MIN_CAPACITY = 16;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private volatile long[] slots = new long[MIN_CAPACITY];
    /** Keys in the table (writer only). */
    private int size;
    /** Slots not free: keys and removed ones (writer only). */
    private int used;

    /** Whether {@code key} is in the set; any thread. */
    boolean contains(long key) {
        if (key == FREE || key == REMOVED) {
            return false;
        }
        long[] s = slots;
        int mask = s.length - 1;
        for (int i = indexOf(key, mask); ; i = (i + 1) & mask) {
            long k = (long) SLOT.getAcquire(s, i);
            if (k == key) {
                return true;
            }
            if (k == FREE) {
                return false;
            }
        }
    }

    /** The slot a probe for {@code key} starts at, read plainly: see {@code AccessObserver#touch}. Any thread. */
    long touch(long key) {
        long[] s = slots;
        return s[indexOf(key, s.length - 1)];
    }

    /** Adds {@code key}; returns false when it was there already. Writer only. */
    boolean add(long key) {
        if (key == FREE || key == REMOVED) {
            throw new IllegalArgumentException("key " + key + " is not a valid key (kind 0) and cannot be tracked");
        }
        long[] s = slots;
        int mask = s.length - 1;
        int reuse = -1;
        int i = indexOf(key, mask);
        for (; ; i = (i + 1) & mask) {
            long k = s[i];
            if (k == key) {
                return false;
            }
            if (k == FREE) {
                break;
            }
            if (k == REMOVED && reuse < 0) {
                reuse = i;
            }
        }
        if (reuse >= 0) {
            SLOT.setRelease(s, reuse, key);
        } else {
            if (2 * (used + 1) > s.length) {
                rebuild(size + 1);
                return add(key);
            }
            SLOT.setRelease(s, i, key);
            used++;
        }
        size++;
        return true;
    }

    /** Removes {@code key}; returns false when it was not there. Writer only. */
    boolean remove(long key) {
        if (key == FREE || key == REMOVED) {
            return false;
        }
        long[] s = slots;
        int mask = s.length - 1;
        for (int i = indexOf(key, mask); ; i = (i + 1) & mask) {
            long k = s[i];
            if (k == key) {
                SLOT.setRelease(s, i, REMOVED);
                size--;
                return true;
            }
            if (k == FREE) {
                return false;
            }
        }
    }

    /** Keys in the set (writer's view). */
    int size() {
        return size;
    }

    /**
     * A new table for the live keys, at most a quarter full with {@code keys} keys, published whole: grows when the
     * keys need it, and drops the removed slots either way.
     */
    private void rebuild(int keys) {
        int capacity = MIN_CAPACITY;
        while (capacity < 4L * keys) {
            capacity <<= 1;
        }
        long[] old = slots;
        long[] next = new long[capacity];
        int mask = capacity - 1;
        int n = 0;
        for (long k : old) {
            if (k != FREE && k != REMOVED) {
                int i = indexOf(k, mask);
                while (next[i] != FREE) {
                    i = (i + 1) & mask;
                }
                next[i] = k;
                n++;
            }
        }
        used = n;
        // Volatile write: the filled table becomes visible whole.
        slots = next;
    }

    private static int indexOf(long key, int mask) {
        return (int) Hashing.mix(key) & mask;
    }
}
