package io.pragh.gremlin.storage;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Vertex labels, edge labels and property keys as 16-bit ids, so that a label fits in a key and a property key costs
 * two bytes in a record. Ids start at 1 and are never reused. It also remembers which ids have been used as edge
 * labels: a vertex's edges of every label are found by asking its OUT or IN key for each of those.
 *
 * <p>Example: {@code int knows = dictionary.intern("knows"); String s = dictionary.name(knows);}
 */
public final class NameDictionary {
    private final ConcurrentHashMap<String, Integer> ids = new ConcurrentHashMap<>();
    private volatile String[] names = new String[16];
    private volatile int[] edgeLabels = new int[0];
    private int next = 1;

    /** The id of {@code name}, assigning the next id on first sight. */
    public int intern(final String name) {
        final Integer id = ids.get(name);
        return id != null ? id : assign(name);
    }

    /** The id of {@code name}, or -1 when it was never interned (so nothing can carry it). */
    public int id(final String name) {
        final Integer id = ids.get(name);
        return id == null ? -1 : id;
    }

    public String name(final int id) {
        final String[] n = names;
        if (id <= 0 || id >= n.length || n[id] == null) {
            throw new CorruptRecordException("dictionary id " + id + " has no name");
        }
        return n[id];
    }

    /** Interns {@code label} and records that some edge carries it. */
    public int internEdgeLabel(final String label) {
        final int id = intern(label);
        final int[] known = edgeLabels;
        for (final int k : known) {
            if (k == id) {
                return id;
            }
        }
        synchronized (this) {
            for (final int k : edgeLabels) {
                if (k == id) {
                    return id;
                }
            }
            final int[] grown = Arrays.copyOf(edgeLabels, edgeLabels.length + 1);
            grown[grown.length - 1] = id;
            edgeLabels = grown; // volatile publish: readers see a complete array
        }
        return id;
    }

    /** Every id used as an edge label so far; callers must not modify the array. */
    public int[] edgeLabels() {
        return edgeLabels;
    }

    private synchronized int assign(final String name) {
        final Integer raced = ids.get(name);
        if (raced != null) {
            return raced;
        }
        if (next > GraphKeys.MAX_LABEL) {
            throw new IllegalStateException("more than " + GraphKeys.MAX_LABEL
                + " distinct labels and property keys: '" + name + "' cannot be added");
        }
        final int id = next++;
        String[] n = names;
        if (id >= n.length) {
            n = Arrays.copyOf(n, n.length * 2);
        }
        n[id] = name;
        names = n; // publish the name before the id becomes visible through the map
        ids.put(name, id);
        return id;
    }
}
