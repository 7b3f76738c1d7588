package io.pragh.rdf.store;

import io.pragh.gremlin.structure.GraphStore;

import java.nio.charset.StandardCharsets;
import java.util.function.ToLongFunction;

/**
 * Term ids both ways, in the store: {@code id -> form} under the term's TERM key (at the id's home, like everything
 * else about the term) and {@code form -> id} through TERM_HASH buckets ({@link HashBucket}), so every machine and
 * every process over the store agrees without a dictionary of its own. Forms are N-Triples
 * ({@code <http://a>}, {@code "x"@en}, {@code "1"^^<http://www.w3.org/2001/XMLSchema#integer>}, {@code _:b0}):
 * literals are terms with ids too, as in Wukong. Lookups go out as one batch of GETs per call, chunked.
 *
 * <p>Example: {@code long[] ids = terms.ids(new String[] {"<http://a>"}, 1);  // -1 where unknown}
 */
public final class TermDictionary {
    private static final int CHUNK = 4096;

    private final GraphStore store;
    private final ToLongFunction<byte[]> hash;

    public TermDictionary(final GraphStore store) {
        this(store, HashBucket::hash44);
    }

    /** A dictionary with another bucket hash (tests force collisions with it); every user of a store must agree. */
    public TermDictionary(final GraphStore store, final ToLongFunction<byte[]> hash) {
        this.store = store;
        this.hash = hash;
    }

    /** The bucket key of a term's UTF-8 form. */
    public long bucketKey(final byte[] utf8) {
        return RdfKeys.termHash(hash.applyAsLong(utf8) & RdfKeys.MAX_TERM);
    }

    /** The id of each of {@code forms[0..count)}, or -1 where the store has no such term. */
    public long[] ids(final String[] forms, final int count) {
        final long[] ids = new long[count];
        final long[] keys = new long[Math.min(count, CHUNK)];
        final byte[][] utf8 = new byte[keys.length][];
        for (int from = 0; from < count; from += CHUNK) {
            final int n = Math.min(CHUNK, count - from);
            for (int i = 0; i < n; i++) {
                utf8[i] = forms[from + i].getBytes(StandardCharsets.UTF_8);
                keys[i] = bucketKey(utf8[i]);
            }
            final int base = from;
            store.getAllViews(keys, n, (i, bucket) -> ids[base + i] = HashBucket.find(bucket, utf8[i]));
        }
        return ids;
    }

    /** The id of one term, or -1. */
    public long id(final String form) {
        return ids(new String[] {form}, 1)[0];
    }

    /** The N-Triples form of each of {@code ids[0..count)}; an id without a term is an error naming it. */
    public String[] forms(final long[] ids, final int count) {
        final String[] forms = new String[count];
        final long[] keys = new long[Math.min(count, CHUNK)];
        for (int from = 0; from < count; from += CHUNK) {
            final int n = Math.min(CHUNK, count - from);
            for (int i = 0; i < n; i++) {
                keys[i] = RdfKeys.term(ids[from + i]);
            }
            final int base = from;
            store.getAllViews(keys, n, (i, v) -> {
                if (v == null) {
                    throw new IllegalStateException("term id " + ids[base + i] + " has no term in the store");
                }
                final byte[] b = new byte[v.length()];
                v.buffer().getBytes(v.offset(), b);
                forms[base + i] = new String(b, StandardCharsets.UTF_8);
            });
        }
        return forms;
    }
}
