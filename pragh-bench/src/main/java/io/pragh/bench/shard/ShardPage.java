package io.pragh.bench.shard;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * One page of a shard's records as {@link LocalShards#export} produces it and {@link LocalShards#importPage} takes
 * it: the encoded records (the layout of {@link ShardRecords}) and where the next page starts.
 *
 * <pre>{@code
 * long cursor = ShardPage.START;
 * do {
 *     ShardPage p = source.export(shard, cursor, 1 << 20);
 *     target.importPage(p);
 *     cursor = p.next();
 * } while (cursor != ShardPage.END);
 * }</pre>
 *
 * @param next   the cursor of the next page, {@link #END} after the last
 * @param body   record count (4) then the records, as {@link ShardRecords} lays them out
 */
public record ShardPage(long next, byte[] body) {
    /** The cursor that starts an export. */
    public static final long START = 0;
    /** The next cursor of the last page. */
    public static final long END = -1;

    /** How many records the page holds. */
    public int records() {
        return ShardRecords.count(new UnsafeBuffer(body), 0);
    }

    /** The value bytes of all its records. */
    public long valueBytes() {
        return ShardRecords.valueBytes(new UnsafeBuffer(body), 0);
    }
}
