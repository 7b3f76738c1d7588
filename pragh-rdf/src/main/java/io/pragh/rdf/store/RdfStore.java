package io.pragh.rdf.store;

import io.pragh.gremlin.storage.NameDictionary;
import io.pragh.gremlin.structure.GraphStore;

/**
 * An RDF store over a {@link GraphStore}, embedded or a cluster reached through a machine's client port: the terms
 * ({@link TermDictionary}), the predicates (labels of the store's {@link NameDictionary}) and the lists under
 * {@link RdfKeys}. It does not own the
 * {@code GraphStore}: whoever opened it closes it.
 *
 * <p>Example: {@code RdfStore rdf = new RdfStore(EmbeddedGraphStore.open(conf)); int p = rdf.predicate("<http://p>");}
 */
public final class RdfStore {
    private final GraphStore store;
    private final TermDictionary terms;

    public RdfStore(final GraphStore store) {
        this(store, new TermDictionary(store));
    }

    public RdfStore(final GraphStore store, final TermDictionary terms) {
        this.store = store;
        this.terms = terms;
    }

    public GraphStore store() {
        return store;
    }

    public TermDictionary terms() {
        return terms;
    }

    /** The label of a predicate (N-Triples form), or -1 when no triple of the store has it. */
    public int predicate(final String form) {
        return store.names().id(form);
    }

    /**
     * The label of a predicate, added to the store's dictionary on first sight: as a name, not an edge label, so a
     * property graph over the same store (the Gremlin side of {@code ./pragh serve}) never reads an RDF list, 8 bytes
     * an entry, as its 16-byte adjacency.
     */
    public int internPredicate(final String form) {
        return store.names().intern(form);
    }
}
