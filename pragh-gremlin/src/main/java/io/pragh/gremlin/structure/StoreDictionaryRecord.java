package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.NameDictionary;

/**
 * The name dictionary's record in a {@link GraphStore}: the value under {@link GraphKeys#dictionary()}, grown by the
 * {@link GraphMutations#DICTIONARY} read-modify-write at its host. Each store builds its one {@link NameDictionary}
 * over this, shared or sole writer as the store knows who else writes it.
 *
 * <p>Example: {@code NameDictionary names = NameDictionary.shared(new StoreDictionaryRecord(store));}
 */
public final class StoreDictionaryRecord implements NameDictionary.Shared {
    private final GraphStore store;

    public StoreDictionaryRecord(final GraphStore store) {
        this.store = store;
    }

    @Override
    public byte[] read() {
        return store.get(GraphKeys.dictionary());
    }

    @Override
    public void add(final byte[] entry) {
        store.update(GraphKeys.dictionary(), GraphMutations.DICTIONARY, entry);
    }
}
