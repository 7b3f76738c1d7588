package io.pragh.rdf.load;

import io.pragh.gremlin.load.EdgeBulkLoad;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.ByteWriter;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.UpdateBatch;
import io.pragh.rdf.store.TermList;
import io.pragh.rdf.store.TermSegments;
import io.pragh.store.ValueView;

import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes the lists of a load that are, or become, longer than a segment ({@link TermSegments}): the tail's body and
 * the new ids are cut into full segments of {@code segmentEntries} ids, each written once under a slot claimed in the
 * term's slot record, then the tail is put back with their heads and the 1..segmentEntries ids left. So loading or
 * appending to an index vertex writes one segment at a time and never copies the list, and no value outgrows a
 * segment by more than what one load adds to a list below the check ({@link #due}).
 *
 * <p>The tail is read, and put back, by this writer alone: RDF lists change only by loads, one at a time. A reader
 * sees the old tail (the old segments) or the new one, whose segments were all written before it.
 *
 * <p>Example: {@code new SegmentingWriter(store, 1 << 16).write(key, ids, from, to);}
 */
final class SegmentingWriter {
    private final GraphStore store;
    private final int segmentEntries;
    private final EdgeBulkLoad.Progress progress;

    SegmentingWriter(final GraphStore store, final int segmentEntries, final EdgeBulkLoad.Progress progress) {
        if (segmentEntries < 1 || segmentEntries > TermSegments.MAX_SEGMENT_ENTRIES) {
            throw new IllegalArgumentException("segment entries must be in 1.." + TermSegments.MAX_SEGMENT_ENTRIES
                + ", not " + segmentEntries);
        }
        this.store = store;
        this.segmentEntries = segmentEntries;
        this.progress = progress;
    }

    /** Whether a run of {@code ids} goes through this writer rather than the plain append: longer than a segment. */
    boolean segments(final int ids) {
        return ids > segmentEntries;
    }

    /**
     * Whether a list that just got a short run of {@code ids} is due a check of its tail's length: always for runs of
     * {@code segmentEntries / 64} or more, else with a chance in proportion, so a tail is checked about every
     * {@code segmentEntries / 64} ids appended to it, across loads, with no state kept between them.
     */
    boolean due(final int ids) {
        final int every = Math.max(1, segmentEntries / 64);
        return ids >= every || ThreadLocalRandom.current().nextInt(every) < ids;
    }

    /** Segments the lists under {@code keys} whose tail's body is longer than a segment (one batch of GETs). */
    void sealLong(final long[] keys) {
        final boolean[] isLong = new boolean[keys.length];
        store.getAllViews(keys, keys.length, (i, tail) -> isLong[i] = TermList.count(tail) > segmentEntries);
        for (int i = 0; i < keys.length; i++) {
            if (isLong[i]) {
                write(keys[i], new long[0], 0, 0);
            }
        }
    }

    /** Adds {@code ids[from..to)} to the list under {@code key}, cutting full segments from its body and the ids. */
    void write(final long key, final long[] ids, final int from, final int to) {
        final byte[] tail = store.get(key);
        final ValueView view = tail == null ? null : new ValueView().over(tail);
        final int heads = TermSegments.heads(view);
        final int old = TermList.count(view);
        final long[] body = new long[old + to - from];
        TermList.copyBody(view, body, 0);
        System.arraycopy(ids, from, body, old, to - from);
        Arrays.sort(body); // each segment sorted, for the joins that merge or search
        final int sealed = (body.length - 1) / segmentEntries;
        if (sealed == 0) {
            store.append(key, TermList.encode(ids, from, to));
            return;
        }
        if (heads + sealed > AdjacencySegments.MAX_SLOTS) {
            throw new IllegalStateException("the list under key " + key + " would need " + (heads + sealed)
                + " segments, more than the " + AdjacencySegments.MAX_SLOTS + " a term can key: load with longer"
                + " segments");
        }
        final int[] slots = claimSlots(key, heads, sealed);
        final ByteWriter next = new ByteWriter((heads + sealed) * TermSegments.HEAD_BYTES
            + (body.length - sealed * segmentEntries) * TermList.ENTRY_BYTES);
        if (tail != null) {
            next.putBytes(tail, 0, heads * TermSegments.HEAD_BYTES);
        }
        for (int s = 0; s < sealed; s++) {
            store.put(TermSegments.segmentKey(key, slots[s]),
                TermList.encode(body, s * segmentEntries, (s + 1) * segmentEntries));
            next.putBytes(TermSegments.head(slots[s], segmentEntries));
            progress.update("segmenting", s + 1, sealed);
        }
        next.putBytes(TermList.encode(body, sealed * segmentEntries, body.length));
        store.put(key, next.toByteArray());
    }

    /**
     * Slots for the list's segments {@code first..first+count)} (ordinals), claimed in one batch: a slot is claimed
     * once per list and ordinal, so a load that died before its tail named a segment leaves a slot the next reuses.
     */
    private int[] claimSlots(final long key, final int first, final int count) {
        final UpdateBatch batch = new UpdateBatch(count);
        for (int s = 0; s < count; s++) {
            batch.add(TermSegments.slotsKey(key), GraphMutations.SEGMENT_SLOT,
                new ByteWriter(8).putLong(TermSegments.slotTag(key, first + s)).toByteArray());
        }
        store.updateAll(batch);
        final byte[] record = store.get(TermSegments.slotsKey(key));
        final int[] slots = new int[count];
        for (int s = 0; s < count; s++) {
            slots[s] = AdjacencySegments.slotOf(record, TermSegments.slotTag(key, first + s));
            if (slots[s] < 1) {
                throw new IllegalStateException("the list under key " + key + " got no slot for its segment "
                    + (first + s));
            }
        }
        return slots;
    }
}
