package io.pragh.rdf.store;

import io.pragh.keys.KeyLayout;

/**
 * The keys of an RDF store. A term id is a vertex id (44 bits) and a predicate a label (16 bits), so
 * {@code (s, p, OUT)} lists the objects of {@code s p ?} and {@code (o, p, IN)} the subjects of {@code ? p o}, both at
 * the term's home. The index vertex {@link #INDEX} (no term has id 0) is Wukong's: {@code (INDEX, p, OUT)} lists the
 * subjects having {@code p}, {@code (INDEX, p, IN)} its objects, so a pattern with only variables starts somewhere.
 * A class needs no index of its own: {@code (T, rdf:type, IN)} already lists T's instances.
 *
 * <pre>
 *   kind        key                          value
 *   OUT / IN    (term, predicate, OUT | IN)  TermList: neighbour term ids (kinds 11, 12)
 *   TERM        (id, 0, TERM)                the term's N-Triples form, UTF-8
 *   TERM_HASH   (hash44(form), 0, TERM_HASH) HashBucket: the (form, id) pairs whose hash is this one
 *   RDF_SHARED  (0, 0, RDF_SHARED)           the term id counter (IdBlocks)
 * </pre>
 *
 * <p>Kinds 6 and 7 are the Gremlin provider's (edge index, shared records); RDF takes 8 to 12, so one store holds
 * both without a key of one meaning something to the other.
 *
 * <p>Example: {@code long k = RdfKeys.out(subject, predicate);}
 */
public final class RdfKeys {
    /**
     * The kinds of the lists: Wukong's OUT and IN, but kinds of their own rather than the core's OUT and IN, so that a
     * property graph over the same store (Gremlin beside the SPARQL endpoint in {@code ./pragh serve}) never scans an
     * RDF list, 8 bytes an entry, as its 16-byte adjacency ({@code g.E()} walks every key of kind OUT).
     */
    public static final int OUT = KeyLayout.FIRST_PROVIDER_KIND + 5;
    public static final int IN = KeyLayout.FIRST_PROVIDER_KIND + 6;
    public static final int TERM = KeyLayout.FIRST_PROVIDER_KIND + 2;
    public static final int TERM_HASH = KeyLayout.FIRST_PROVIDER_KIND + 3;
    public static final int RDF_SHARED = KeyLayout.FIRST_PROVIDER_KIND + 4;
    /** The index vertex: no term has this id. */
    public static final long INDEX = 0;
    /** Largest term id a key can carry. */
    public static final long MAX_TERM = KeyLayout.MAX_VID;

    private RdfKeys() {
    }

    public static long out(final long term, final int predicate) {
        return KeyLayout.key(term, predicate, OUT);
    }

    public static long in(final long term, final int predicate) {
        return KeyLayout.key(term, predicate, IN);
    }

    public static long term(final long id) {
        return KeyLayout.key(id, 0, TERM);
    }

    public static long termHash(final long hash) {
        return KeyLayout.key(hash, 0, TERM_HASH);
    }

    /** The term id counter, claimed in blocks by loads. */
    public static long termIds() {
        return KeyLayout.key(0, 0, RDF_SHARED);
    }
}
