package io.pragh.memory;

/**
 * Where a record that states its own length ends: from its first word, how many of the at most {@code maxLength}
 * bytes reserved for it are worth copying. A reader that copies a record through
 * {@link ChunkedRegion#getRecord} then copies what the record holds, not the room it was given to grow into (a value
 * record's size class can hold twice its payload). The memory layer knows no record layout; the layer above supplies
 * it (a value record's: {@code io.pragh.values.ValueRecord#EXTENT}).
 *
 * <pre>{@code
 * RecordExtent extent = (first, max) -> (int) Math.min(max, 8 + (first >>> 32));
 * int copied = region.getRecord(offset, dst, 0, capacity, extent);
 * }</pre>
 */
@FunctionalInterface
public interface RecordExtent {
    /**
     * Bytes of the record to copy, given its first word (read first, with acquire semantics); at least 8 and at
     * most {@code maxLength}, whatever the word holds (a reader checks the copy afterwards, and a stale or torn
     * record must not make it read past what it reserved).
     */
    int bytes(long firstWord, int maxLength);
}
