package io.pragh.bench.shard;

import io.pragh.store.MachineStore;
import io.pragh.store.Session;
import io.pragh.store.ValueView;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.LongHashSet;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One machine's side of shard moves, the same for a machine of an embedded cluster and a server process: export a
 * page of the shard's records it owns, load a page as local records, assign shards' owners in its table (dropping
 * the cached addresses they invalidate), unload a shard it gave away. Refusals are
 * {@link IllegalArgumentException}s naming the fault; a refused step changes nothing.
 *
 * <pre>{@code
 * LocalShards source = new LocalShards(cluster.machine(0).store(), placement);
 * ShardPage page = source.export(shard, ShardPage.START, 1 << 20);
 * target.importPage(page);
 * }</pre>
 */
public final class LocalShards {
    /** Thrown through {@code forEach} to end a walk once a page is full; no stack trace, one instance. */
    private static final RuntimeException PAGE_FULL = new RuntimeException("page full", null, false, false) {
    };

    private final MachineStore store;
    private final ShardPlacement placement;

    /** @param placement this machine's shard table: the one its store routes by */
    public LocalShards(MachineStore store, ShardPlacement placement) {
        if (store.placement() != placement) {
            throw new IllegalArgumentException("machine " + store.id() + " does not route by this shard placement");
        }
        this.store = store;
        this.placement = placement;
    }

    public ShardPlacement placement() {
        return placement;
    }

    /**
     * Up to {@code maxBytes} of record bytes (but never more than the machine's largest value, so a page always fits
     * an import into a machine of the same configuration; and at least one record while any is left) of this
     * machine's keys of {@code shard} from {@code cursor} on. Cursor semantics are those of a home-key scan: slot
     * offsets grow as the key region is walked, a page ends before the slot of the first record that did not fit.
     * Reads values through the calling thread's session.
     */
    public ShardPage export(int shard, long cursor, int maxBytes) {
        checkShard(shard);
        if (placement.owner(shard) != store.id()) {
            throw new IllegalArgumentException("machine " + store.id() + " does not own shard " + shard
                + " (machine " + placement.owner(shard) + " does): only an owner exports a shard");
        }
        if (cursor < ShardPage.START) {
            throw new IllegalArgumentException("export from cursor " + cursor + " (a cursor is >= 0)");
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("export of " + maxBytes + " bytes per page (must be >= 1)");
        }
        long budget = Math.min(maxBytes, (long) store.config().maxValueBytes());
        ExpandableArrayBuffer out = new ExpandableArrayBuffer(4096);
        Session session = store.session();
        int[] count = {0};
        int[] at = {ShardRecords.HEADER_BYTES};
        long[] next = {ShardPage.END};
        try {
            store.keys().forEach((key, address, slot) -> {
                if (slot < cursor || placement.shardOf(key) != shard) {
                    return;
                }
                ValueView v = session.get(key);
                if (v == null) {
                    return;
                }
                int size = ShardRecords.RECORD_HEADER_BYTES + v.length();
                if (count[0] > 0 && at[0] - ShardRecords.HEADER_BYTES + size > budget) {
                    next[0] = slot; // the first record that did not fit starts the next page
                    throw PAGE_FULL;
                }
                out.putLong(at[0], key);
                out.putLong(at[0] + 8, v.version());
                out.putInt(at[0] + 16, v.length());
                out.putBytes(at[0] + ShardRecords.RECORD_HEADER_BYTES, v.buffer(), v.offset(), v.length());
                at[0] += size;
                count[0]++;
            });
        } catch (RuntimeException e) {
            if (e != PAGE_FULL) {
                throw e;
            }
        }
        out.putInt(0, count[0]);
        byte[] body = new byte[at[0]];
        out.getBytes(0, body);
        return new ShardPage(next[0], body);
    }

    /** Loads a page as records local to this machine; see {@link #importRecords}. */
    public int importPage(ShardPage page) {
        return importRecords(new UnsafeBuffer(page.body()), 0, page.body().length);
    }

    /**
     * Loads a batch of records ({@link ShardRecords}) as records local to this machine; returns how many. The batch
     * is refused as a whole, before anything is loaded, when it is malformed, holds a value over the machine's limit,
     * names a key twice or a key this machine already holds; a load that fails on the way (a full region) takes back
     * what the batch loaded before rethrowing.
     */
    public int importRecords(DirectBuffer b, int offset, int length) {
        String problem = ShardRecords.check(b, offset, length, store.config().maxValueBytes());
        if (problem != null) {
            throw new IllegalArgumentException("machine " + store.id() + " refuses the records: " + problem);
        }
        LongHashSet seen = new LongHashSet();
        ShardRecords.forEach(b, offset, (key, version, value, off, len) -> {
            if (!seen.add(key)) {
                throw new IllegalArgumentException("machine " + store.id() + " refuses the records: key " + key
                    + " appears twice");
            }
            if (store.keys().find(key) >= 0) {
                throw new IllegalArgumentException("machine " + store.id() + " refuses the records: key " + key
                    + " already has a record here");
            }
        });
        LongArrayList loaded = new LongArrayList();
        try {
            ShardRecords.forEach(b, offset, (key, version, value, off, len) -> {
                loaded.addLong(key); // before the load: a load that fails part-way is taken back too
                store.load(key, version, value, off, len);
            });
        } catch (RuntimeException | Error e) {
            // A region that filled part-way: the batch leaves nothing behind, so that a retry is not refused.
            for (int i = 0; i < loaded.size(); i++) {
                store.unload(loaded.getLong(i));
            }
            throw e;
        }
        return seen.size();
    }

    /**
     * Sets this machine's owner of each {@code shards[i]} to {@code owners[i]}, then drops its cached addresses of
     * those shards' keys, in one walk of the cache. Each entry is a release-store that every later lookup of the
     * table acquires; a lookup racing the flip may still route to the old owner, which keeps its records until the
     * mover's grace period ends.
     */
    public void assign(int[] shards, int[] owners) {
        if (shards.length != owners.length) {
            throw new IllegalArgumentException(shards.length + " shards but " + owners.length + " owners");
        }
        for (int i = 0; i < shards.length; i++) {
            checkShard(shards[i]);
            if (owners[i] < 0 || owners[i] >= placement.machines()) {
                throw new IllegalArgumentException("owner " + owners[i] + " of shard " + shards[i] + " is not a"
                    + " machine (0.." + (placement.machines() - 1) + ")");
            }
        }
        boolean[] moved = new boolean[placement.shards()];
        for (int i = 0; i < shards.length; i++) {
            placement.assign(shards[i], owners[i]);
            moved[shards[i]] = true;
        }
        store.cache().invalidateIf((key, address) -> moved[placement.shardOf(key)]);
    }

    /** Removes this machine's keys of {@code shard}, which it must no longer own; returns how many it held. */
    public long unload(int shard) {
        checkShard(shard);
        if (placement.owner(shard) == store.id()) {
            throw new IllegalArgumentException("machine " + store.id() + " still owns shard " + shard
                + ": assign it elsewhere before unloading it");
        }
        LongArrayList keys = new LongArrayList();
        store.keys().forEach((key, address, slot) -> {
            if (placement.shardOf(key) == shard) {
                keys.addLong(key);
            }
        });
        for (int i = 0; i < keys.size(); i++) {
            store.unload(keys.getLong(i));
        }
        return keys.size();
    }

    private void checkShard(int shard) {
        if (shard < 0 || shard >= placement.shards()) {
            throw new IllegalArgumentException("shard " + shard + " does not exist (0.." + (placement.shards() - 1)
                + ")");
        }
    }
}
