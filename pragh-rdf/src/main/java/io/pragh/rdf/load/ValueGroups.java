package io.pragh.rdf.load;

import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * (key, term id) pairs grouped by key into whole lists, sorted and without duplicates: a triple set is a set, and a
 * list sorted once at load time lets a later join merge rather than hash. Two passes over the pairs (count, place),
 * as a CSR build, with no object per pair.
 *
 * <p>Example: {@code ValueGroups g = new ValueGroups(n); g.add(key, id); g.build(); byte[] v = g.value(0);}
 */
final class ValueGroups {
    private long[] pairKeys;
    private long[] pairIds;
    private int pairs;
    private long[] keys;
    private int[] start;
    private long[] ids;
    private int[] length;

    ValueGroups(final int capacity) {
        pairKeys = new long[Math.max(16, capacity)];
        pairIds = new long[pairKeys.length];
    }

    void add(final long key, final long id) {
        if (pairs == pairKeys.length) {
            pairKeys = Arrays.copyOf(pairKeys, pairs * 2);
            pairIds = Arrays.copyOf(pairIds, pairs * 2);
        }
        pairKeys[pairs] = key;
        pairIds[pairs++] = id;
    }

    /** Groups the pairs added so far; {@link #size} groups afterwards. */
    void build() {
        final Long2LongHashMap group = new Long2LongHashMap(Math.max(16, pairs / 2), 0.65f, -1);
        int[] counts = new int[64];
        keys = new long[64];
        int groups = 0;
        for (int i = 0; i < pairs; i++) {
            long g = group.get(pairKeys[i]);
            if (g < 0) {
                if (groups == keys.length) {
                    keys = Arrays.copyOf(keys, groups * 2);
                    counts = Arrays.copyOf(counts, groups * 2);
                }
                g = groups;
                group.put(pairKeys[i], groups);
                keys[groups++] = pairKeys[i];
            }
            counts[(int) g]++;
        }
        start = new int[groups + 1];
        for (int g = 0; g < groups; g++) {
            start[g + 1] = start[g] + counts[g];
        }
        ids = new long[pairs];
        final int[] next = Arrays.copyOf(start, groups);
        for (int i = 0; i < pairs; i++) {
            ids[next[(int) group.get(pairKeys[i])]++] = pairIds[i];
        }
        pairKeys = null;
        pairIds = null;
        length = new int[groups];
        for (int g = 0; g < groups; g++) {
            Arrays.sort(ids, start[g], start[g + 1]);
            int w = start[g];
            for (int r = start[g]; r < start[g + 1]; r++) {
                if (r == start[g] || ids[r] != ids[w - 1]) {
                    ids[w++] = ids[r];
                }
            }
            length[g] = w - start[g];
        }
        keys = Arrays.copyOf(keys, groups);
    }

    int size() {
        return keys.length;
    }

    long key(final int group) {
        return keys[group];
    }

    /** Distinct ids in a group. */
    int count(final int group) {
        return length[group];
    }

    /** Where a group's ids start in {@link #ids}. */
    int from(final int group) {
        return start[group];
    }

    /** Every group's ids, group after group ({@link #from}, {@link #count}). */
    long[] ids() {
        return ids;
    }

    byte[] value(final int group) {
        return io.pragh.rdf.store.TermList.encode(ids, start[group], start[group] + length[group]);
    }
}
