package io.pragh.gremlin.structure;

import io.pragh.PraghException;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.IdBlocks;

import java.util.UUID;

/**
 * Hands out vertex, edge and vertex-property ids from blocks claimed on the store's shared {@link IdBlocks} counter,
 * so graphs in different processes over one store never assign the same id, and a process that restarts on a
 * durable store does not hand out its old ids again. A user-supplied id is skipped within the current block; one
 * past it raises the shared counter and starts a new block after it (so an ascending load of user ids costs two
 * updates and a GET per block of ids, not one per id).
 *
 * <p>Example: {@code IdAllocator ids = new IdAllocator(store); long vid = ids.next();}
 */
final class IdAllocator {
    /** Ids per claimed block: one store update and one GET per this many new elements. */
    static final long BLOCK = 1024;
    private static final int MAX_CLAIMS = 1000;

    private final GraphStore store;
    private final long tokenHigh;
    private final long tokenLow;
    /** Guarded by this: the current block is [next, end). */
    private long next;
    private long end;

    IdAllocator(final GraphStore store) {
        this.store = store;
        final UUID token = UUID.randomUUID();
        this.tokenHigh = token.getMostSignificantBits();
        this.tokenLow = token.getLeastSignificantBits();
    }

    synchronized long next() {
        if (next >= end) {
            claim();
        }
        return next++;
    }

    /**
     * Makes sure this allocator, and every other over the store, never hands out {@code id}: within the current
     * block the ids up to it are skipped; past it, the shared counter is raised past {@code id} and a new block
     * claimed from there, so ids assigned after a user-supplied one follow it (as TinkerGraph's do).
     */
    synchronized void reserve(final long id) {
        if (id < next) {
            return;
        }
        if (id < end) {
            next = id + 1;
            return;
        }
        store.update(GraphKeys.idBlocks(), GraphMutations.ID_BLOCKS, IdBlocks.advanceTo(id + 1));
        claim();
    }

    private void claim() {
        for (int attempt = 0; attempt < MAX_CLAIMS; attempt++) {
            store.update(GraphKeys.idBlocks(), GraphMutations.ID_BLOCKS, IdBlocks.claim(tokenHigh, tokenLow, BLOCK));
            final long start = IdBlocks.claimedBy(store.get(GraphKeys.idBlocks()), tokenHigh, tokenLow);
            if (start >= 0) {
                next = start;
                end = start + BLOCK;
                return;
            }
            // Another graph claimed right after us and its token hides ours: that block is lost, claim again.
        }
        throw new PraghException("could not claim a block of ids in " + MAX_CLAIMS + " attempts (the shared id"
            + " counter is contended by too many graphs at once)");
    }
}
