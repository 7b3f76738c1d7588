package io.pragh.rdf.store;

import io.pragh.gremlin.structure.GraphStore;

/**
 * Term lists read whole, supernodes included ({@link TermSegments}): one batch of GETs of the lists (tails), then one
 * more of the sealed segments of every segmented list among them (none when no list is), each list's ids as one
 * array, segments first and the tail's body after.
 *
 * <p>Example: {@code long[][] lists = TermLists.readAll(store, keys, n);}
 */
public final class TermLists {
    private TermLists() {
    }

    /** The ids of the lists under {@code keys[0..count)}, in the keys' order (empty where a key has none). */
    public static long[][] readAll(final GraphStore store, final long[] keys, final int count) {
        final long[][] lists = new long[count][];
        final int[][] segments = new int[count][]; // per segmented list: slot, ids, slot, ids, ...
        final int[] total = {0};
        store.getAllViews(keys, count, (i, tail) -> {
            final int heads = TermSegments.heads(tail);
            if (heads == 0) {
                lists[i] = TermList.toArray(tail);
                return;
            }
            final int[] named = new int[2 * heads];
            long ids = TermList.count(tail);
            for (int h = 0; h < heads; h++) {
                named[2 * h] = TermSegments.slot(tail, h);
                named[2 * h + 1] = TermSegments.entries(tail, h);
                ids += named[2 * h + 1];
            }
            if (ids > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("the list under key " + keys[i] + " holds " + ids
                    + " ids, too many to read whole");
            }
            lists[i] = new long[(int) ids];
            TermList.copyBody(tail, lists[i], (int) ids - TermList.count(tail));
            segments[i] = named;
            total[0] += heads;
        });
        if (total[0] == 0) {
            return lists;
        }
        final long[] segmentKeys = new long[total[0]];
        final int[] owner = new int[total[0]];
        final int[] at = new int[total[0]];
        final int[] length = new int[total[0]];
        int s = 0;
        for (int i = 0; i < count; i++) {
            for (int h = 0, into = 0; segments[i] != null && h < segments[i].length; h += 2) {
                segmentKeys[s] = TermSegments.segmentKey(keys[i], segments[i][h]);
                owner[s] = i;
                at[s] = into;
                length[s++] = segments[i][h + 1];
                into += segments[i][h + 1];
            }
        }
        store.getAllViews(segmentKeys, s, (k, segment) -> {
            if (TermList.count(segment) != length[k]) {
                // a head is written only after its segment, and a segment is never rewritten: a store out of shape
                throw new IllegalStateException("the segment under key " + segmentKeys[k] + " of the list under key "
                    + keys[owner[k]] + " holds " + TermList.count(segment) + " ids, its head says " + length[k]);
            }
            TermList.copyBody(segment, lists[owner[k]], at[k]);
        });
        return lists;
    }
}
