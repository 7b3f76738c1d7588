package io.pragh.gremlin.storage;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Vertex labels, edge labels and property keys as 16-bit ids, so that a label fits in a key and a property key costs
 * two bytes in a record. Ids start at 1 and are never reused. It also remembers which ids have been used as edge
 * labels: a vertex's edges of every label are found by asking its OUT or IN key for each of those.
 *
 * <p>The dictionary lives in the store ({@link DictionaryRecord}, through {@link Shared}), so every graph over one
 * store, in this process or another, gives a name the same id: a new name is added by a read-modify-write at the
 * record's host, then read back. This object caches what it has read. Whether it must also read the record again to
 * learn what others added is decided once, by the factory that builds it:
 * <ul>
 *   <li>{@link #shared}: other processes add to the record too (a multi-process cluster), so a name or id it does
 *       not know, and the list of edge labels, are read again from the store (one GET of the record each time);</li>
 *   <li>{@link #soleWriter}: every add to the record goes through this object (an embedded cluster, whose store
 *       holds the one dictionary of every graph over it), so the record never holds anything this object has not
 *       already read back after its own add, and it is read only then (and once when the object is built).</li>
 * </ul>
 *
 * <p>Example: {@code int knows = dictionary.intern("knows"); String s = dictionary.name(knows);}
 */
public final class NameDictionary {
    /** Where the shared record is kept. */
    public interface Shared {
        /** The current record, or null when nothing was ever added. */
        byte[] read();

        /** Runs {@link DictionaryRecord#add} with {@code entry} at the record's host; returns once acknowledged. */
        void add(byte[] entry);
    }

    private final Shared shared;
    /**
     * Whether anything but this object adds to the record, so that a miss or a list of edge labels must read it
     * again; fixed at construction (see {@link #shared} and {@link #soleWriter}).
     */
    private final boolean othersAdd;
    private final ConcurrentHashMap<String, Integer> ids = new ConcurrentHashMap<>();
    private volatile String[] names = new String[16];
    private volatile int[] edgeLabels = new int[0];
    /** How many bytes of the record have been applied (written under the lock), and how many names they held. */
    private volatile int applied;
    private int count;

    private NameDictionary(final Shared shared, final boolean othersAdd) {
        this.shared = shared;
        this.othersAdd = othersAdd;
    }

    /**
     * A dictionary over a record that other processes add to as well: it reads the record again whenever it could
     * have gained something this object needs (an unknown name or id, the list of edge labels).
     *
     * <p>Example: {@code NameDictionary names = NameDictionary.shared(record); // one per process of a cluster}
     */
    public static NameDictionary shared(final Shared shared) {
        return new NameDictionary(shared, true);
    }

    /**
     * A dictionary that is the only writer of its record: the caller guarantees that every add to the record goes
     * through this object (one object per store, every graph and machine that writes the store in this process
     * sharing it). The record is read once now, for whatever it already holds, and afterwards only right after an
     * add of this object's, whose read-back applies that add and any concurrent one of another thread here; so a
     * hop over every edge label, or a lookup of a name never interned, costs no GET.
     *
     * <p>Example: {@code NameDictionary names = NameDictionary.soleWriter(record); // an embedded store's}
     */
    public static NameDictionary soleWriter(final Shared shared) {
        final NameDictionary names = new NameDictionary(shared, false);
        names.readBack();
        return names;
    }

    /** The id of {@code name}, adding it to the shared record on first sight. */
    public int intern(final String name) {
        Integer id = ids.get(name);
        if (id != null) {
            return id;
        }
        catchUp();
        id = ids.get(name);
        if (id != null) {
            return id;
        }
        shared.add(DictionaryRecord.name(name));
        readBack();
        id = ids.get(name);
        if (id == null) {
            throw new IllegalStateException("more than " + GraphKeys.MAX_LABEL
                + " distinct labels and property keys: '" + name + "' cannot be added");
        }
        return id;
    }

    /** The id of {@code name}, or -1 when it was never interned (so nothing can carry it). */
    public int id(final String name) {
        Integer id = ids.get(name);
        if (id == null) {
            catchUp();
            id = ids.get(name);
        }
        return id == null ? -1 : id;
    }

    public String name(final int id) {
        String n = known(id);
        if (n == null) {
            catchUp();
            n = known(id);
        }
        if (n == null) {
            throw new CorruptRecordException("dictionary id " + id + " has no name");
        }
        return n;
    }

    private String known(final int id) {
        final String[] n = names;
        return id <= 0 || id >= n.length ? null : n[id];
    }

    /** Interns {@code label} and records (in the shared record) that some edge carries it. */
    public int internEdgeLabel(final String label) {
        final int id = intern(label);
        if (isEdgeLabel(id)) {
            return id;
        }
        shared.add(DictionaryRecord.edgeLabel(id));
        readBack();
        return id;
    }

    private boolean isEdgeLabel(final int id) {
        for (final int k : edgeLabels) {
            if (k == id) {
                return true;
            }
        }
        return false;
    }

    /**
     * Every id used as an edge label so far, by any graph over the store (in {@link #shared} mode, one GET of the
     * record to see whether another process added one); callers must not modify the array.
     */
    public int[] edgeLabels() {
        catchUp();
        return edgeLabels;
    }

    /**
     * Reads what others may have added, when others can add. A sole writer skips it: every add went through {@link
     * #intern} or {@link #internEdgeLabel}, whose read-back applied it (volatile publish in {@link #apply}) before
     * they returned, so before any vertex, edge or adjacency could carry the new id; an add still in flight on
     * another thread may be in the record unapplied, but nothing carries its id yet, and that thread's read-back
     * applies it before its caller can write one.
     */
    private void catchUp() {
        if (othersAdd) {
            readBack();
        }
    }

    /**
     * Applies what the record gained since it was last read. The GET runs outside the lock, so concurrent traversals
     * asking for the edge labels do not queue behind one another's reads; a read older than what another thread
     * already applied (shorter: the record only grows) has nothing new.
     */
    private void readBack() {
        final byte[] record = shared.read();
        if (record != null && record.length > applied) {
            apply(record);
        }
    }

    private synchronized void apply(final byte[] record) {
        if (record.length <= applied) {
            return;
        }
        DictionaryRecord.read(record, applied, new DictionaryRecord.Visitor() {
            @Override
            public void name(final String name) {
                final int id = ++count;
                String[] n = names;
                if (id >= n.length) {
                    n = Arrays.copyOf(n, n.length * 2);
                }
                n[id] = name;
                names = n; // publish the name before the id becomes visible through the map
                ids.put(name, id);
            }

            @Override
            public void edgeLabel(final int id) {
                if (!isEdgeLabel(id)) {
                    final int[] grown = Arrays.copyOf(edgeLabels, edgeLabels.length + 1);
                    grown[grown.length - 1] = id;
                    edgeLabels = grown; // volatile publish: readers see a complete array
                }
            }
        });
        applied = record.length;
    }
}
