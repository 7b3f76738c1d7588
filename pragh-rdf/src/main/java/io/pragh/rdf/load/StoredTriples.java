package io.pragh.rdf.load;

import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.store.RdfKeys;
import io.pragh.rdf.store.TermLists;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongHashSet;

import java.util.Arrays;

/**
 * The triples of a load that the store holds already, from an earlier load: SPARQL reads a graph as a set of triples,
 * so a triple loaded twice must be stored once, or every pattern that matches it answers it twice. Only a triple whose
 * subject and object both had ids before this load can be stored already (a new term is in no triple yet), so a load
 * into an empty store, or of new data, reads nothing; otherwise the subject's {@code (s,p,OUT)} lists of those
 * triples are read whole (segments included), {@value #BATCH} lists a batch of GETs, and the object looked up there.
 *
 * <p>Example: {@code boolean[] stored = StoredTriples.find(store, triples, ids, known, labels);}
 */
final class StoredTriples {
    /** Lists read in one batch of GETs. */
    private static final int BATCH = 4096;

    private StoredTriples() {
    }

    /**
     * Which of {@code triples} the store holds: {@code stored[i]} for triple i, or null when none can be. {@code ids}
     * are the terms' store ids, {@code known} whether a term had its id before this load, {@code labels} the
     * predicates' labels.
     */
    static boolean[] find(final GraphStore store, final TripleCollector triples, final long[] ids,
                          final boolean[] known, final int[] labels) {
        final int n = triples.size();
        final LongHashSet candidates = new LongHashSet();
        for (int i = 0; i < n; i++) {
            if (known[triples.subjects[i]] && known[triples.objects[i]]) {
                candidates.add(RdfKeys.out(ids[triples.subjects[i]], labels[triples.predicateOf[i]]));
            }
        }
        if (candidates.isEmpty()) {
            return null;
        }
        final Long2ObjectHashMap<long[]> lists = new Long2ObjectHashMap<>();
        final long[] keys = new long[Math.min(BATCH, candidates.size())];
        int batched = 0;
        final LongHashSet.LongIterator it = candidates.iterator();
        while (it.hasNext()) {
            keys[batched++] = it.nextValue();
            if (batched == keys.length || !it.hasNext()) {
                final long[][] read = TermLists.readAll(store, keys, batched);
                for (int k = 0; k < batched; k++) {
                    if (read[k].length > 0) {
                        Arrays.sort(read[k]); // a tail is in append order; only segments are sorted
                        lists.put(keys[k], read[k]);
                    }
                }
                batched = 0;
            }
        }
        final boolean[] stored = new boolean[n];
        for (int i = 0; i < n; i++) {
            if (known[triples.subjects[i]] && known[triples.objects[i]]) {
                final long[] objects = lists.get(RdfKeys.out(ids[triples.subjects[i]], labels[triples.predicateOf[i]]));
                stored[i] = objects != null && Arrays.binarySearch(objects, ids[triples.objects[i]]) >= 0;
            }
        }
        return stored;
    }
}
