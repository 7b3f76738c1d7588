package io.pragh.store;

import io.pragh.address.Address;
import io.pragh.cache.LocationCache;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import io.pragh.keys.KeyRegion;
import io.pragh.keys.Placement;
import io.pragh.reclaim.Leases;
import io.pragh.values.ValueRecord;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * GET of many keys at once, as a traversal hop needs: every remote bucket lookup is posted in one batch, then every
 * remote value read in another, so a hop over n remote neighbours costs two round trips instead of 2n. Local keys,
 * cache hits and migrated-here values are served from local memory on the way. A record that fails its check falls
 * back to the single-key {@link Session#get}, which retries. One per session (not thread-safe); reuses its buffers.
 *
 * <pre>{@code
 * session.getAll(keys, 0, n, (i, key, value) -> { if (value != null) collect(value); });
 * }</pre>
 */
final class BatchGet {
    static final int MAX_BATCH = 256;
    private static final int RESOLVED = 0;
    private static final int ABSENT = 1;
    private static final int BUCKET_PENDING = 2;
    /** A tombstone: its DELETE may not be finished (or, durable, logged), which the single-key GET waits for. */
    private static final int DELETING = 3;

    private final MachineStore machine;
    private final Session session;
    private final OpBatch batch;
    private final UnsafeBuffer buckets = new UnsafeBuffer(
        BufferUtil.allocateDirectAligned(MAX_BATCH * KeyRegion.BUCKET_BYTES, 64));
    private UnsafeBuffer records = new UnsafeBuffer(BufferUtil.allocateDirectAligned(64 * 1024, 64));
    private final ValueView view = new ValueView();
    private final int[] state = new int[MAX_BATCH];
    private final int[] homes = new int[MAX_BATCH];
    private final long[] addresses = new long[MAX_BATCH];
    private final long[] slots = new long[MAX_BATCH];
    private final long[] obtainedAt = new long[MAX_BATCH];
    private final int[] recordAt = new int[MAX_BATCH];
    /** The words {@link #touch} read, summed: kept so that those loads are not optimised away; means nothing. */
    private long touched;
    /** When the round's value reads started: every copy of the round is checked against it. */
    private long copyStart;

    BatchGet(MachineStore machine, Session session) {
        this.machine = machine;
        this.session = session;
        this.batch = machine.endpoint().newBatch(MAX_BATCH);
    }

    void getAll(long[] keys, int from, int count, Session.ValueVisitor visitor) {
        for (int base = from; base < from + count; base += MAX_BATCH) {
            round(keys, base, Math.min(MAX_BATCH, from + count - base), visitor);
        }
    }

    /**
     * The lookups of {@link #getAll} without the value reads: each key's address word (from the local key region,
     * the cache, or one batched bucket READ per round of {@link #MAX_BATCH}) and when it was obtained, for a reader
     * that copies the values its own way (an analytics scan, in chunks). Keys without a value are not visited.
     */
    void locateAll(long[] keys, int from, int count, Session.AddressVisitor visitor) {
        for (int base = from; base < from + count; base += MAX_BATCH) {
            int n = Math.min(MAX_BATCH, from + count - base);
            lookUp(keys, base, n);
            for (int i = 0; i < n; i++) {
                if (state[i] == RESOLVED) {
                    visitor.visit(base + i, keys[base + i], addresses[i], obtainedAt[i]);
                } else if (state[i] == DELETING) {
                    // A DELETE in flight: what the single-key GET answers once it settles (most likely nothing).
                    visitor.visit(base + i, keys[base + i], Address.NONE, obtainedAt[i]);
                }
            }
        }
    }

    private void round(long[] keys, int base, int n, Session.ValueVisitor visitor) {
        lookUp(keys, base, n);
        readValues(keys, base, n);
        for (int i = 0; i < n; i++) {
            long key = keys[base + i];
            if (state[i] == ABSENT) {
                visitor.visit(base + i, key, null);
                continue;
            }
            if (state[i] == DELETING) {
                visitor.visit(base + i, key, session.get(key));
                continue;
            }
            int at = recordAt[i];
            long address = addresses[i];
            int verdict = session.check(records, at, address, key, obtainedAt[i], copyStart);
            if (verdict == Session.ACCEPTED) {
                visitor.visit(base + i, key, session.deliver(view, records, at, key, homes[i],
                    Address.host(address, homes[i])));
                continue;
            }
            if (verdict == Session.REJECTED) {
                session.dropCached(key, homes[i], address);
            }
            // Rejected: the single-key GET retries. Settling: its predecessor may still be valid somewhere, and the
            // single-key GET waits for it (linearizable GET).
            visitor.visit(base + i, key, session.get(key));
        }
    }

    /**
     * Addresses from the local key region or the cache ({@link Session#lookUpHere});
     * one batched bucket READ for the rest.
     */
    private void lookUp(long[] keys, int base, int n) {
        touched += touch(keys, base, n);
        batch.clear();
        for (int i = 0; i < n; i++) {
            long key = keys[base + i];
            int found = session.lookUpHere(key, true, true);
            homes[i] = session.home;
            obtainedAt[i] = session.obtainedAtMillis;
            if (found != Session.READ_BUCKET) {
                resolve(i, session.address, session.slot);
            } else {
                state[i] = BUCKET_PENDING;
                batch.read(session.home, Region.KEYS, machine.keys().homeBucketOffset(key), buckets,
                    i * KeyRegion.BUCKET_BYTES, KeyRegion.BUCKET_BYTES);
            }
        }
        batch.awaitAll();
        for (int i = 0; i < n; i++) {
            if (state[i] != BUCKET_PENDING) {
                continue;
            }
            long key = keys[base + i];
            int at = i * KeyRegion.BUCKET_BYTES;
            // The session's lookup state is this key's again: its home and the clock before the batched read.
            session.home = homes[i];
            session.obtainedAtMillis = obtainedAt[i];
            int found = session.lookUpInBucket(key, buckets, at, machine.keys().homeBucketOffset(key));
            if (found == Session.READ_BUCKET && KeyRegion.overflowOf(buckets, at, machine.keys().mainBuckets()) >= 0) {
                // Rare: the key lives in an overflow bucket; the single-key lookup follows the chain (and leaves a
                // miss's word, NONE or a tombstone, in session.address).
                session.lookup(key, false);
                obtainedAt[i] = session.obtainedAtMillis;
                resolve(i, session.address, session.slot);
            } else if (found == Session.READ_BUCKET) {
                machine.cache().noteAbsent();
                state[i] = ABSENT;
            } else {
                if (found == Session.MISSING) {
                    machine.cache().noteAbsent();
                }
                resolve(i, session.address, session.slot);
            }
        }
    }

    /**
     * Reads the memory each key's lookup will start at (its home bucket here, else its location cache set) before any
     * lookup runs. A lookup's first load stalls on memory (a random line of a large table, often a page walk too):
     * profiled on {@code bench rdf} split-cache at LUBM-16, those stalls were a third of the query threads' time, one
     * after the other, as each lookup's load waits for the last lookup to finish. These loads depend on nothing but
     * their key, so the CPU issues many at once; the lookups after them find their lines in the cache.
     */
    private long touch(long[] keys, int base, int n) {
        int self = machine.id();
        Placement placement = machine.placement();
        KeyRegion region = machine.keys();
        LocationCache cache = machine.cache();
        AccessObserver observer = machine.accessObserver();
        long sum = 0;
        for (int i = 0; i < n; i++) {
            long key = keys[base + i];
            sum += placement.home(key) == self ? region.touch(key) : cache.touch(key);
        }
        if (observer != null) {
            // The monitor's tracked-key probe of each delivered value: the next stall once the lookups' were gone.
            for (int i = 0; i < n; i++) {
                sum += observer.touch(keys[base + i]);
            }
        }
        return sum;
    }

    private void resolve(int i, long address, long slot) {
        addresses[i] = address;
        slots[i] = slot;
        state[i] = Address.isTombstone(address) ? DELETING : Address.isNone(address) ? ABSENT : RESOLVED;
    }

    /** Local copies for values here; one batched value READ for the rest. */
    private void readValues(long[] keys, int base, int n) {
        int self = machine.id();
        int total = 0;
        for (int i = 0; i < n; i++) {
            if (state[i] == RESOLVED) {
                recordAt[i] = total;
                total += (int) Address.byteSize(addresses[i]);
            }
        }
        if (records.capacity() < total) {
            records = new UnsafeBuffer(BufferUtil.allocateDirectAligned(Integer.highestOneBit(total - 1) << 1, 64));
        }
        batch.clear();
        copyStart = Leases.nowMillis();
        for (int i = 0; i < n; i++) {
            if (state[i] != RESOLVED) {
                continue;
            }
            long address = addresses[i];
            int host = Address.host(address, homes[i]);
            int length = (int) Address.byteSize(address);
            // The record's published extent, not its size class: an adjacency list's record can hold twice its
            // payload (room to grow in place), and copying the slack cost the fused two-hop 1.7x its median.
            if (host == self) {
                machine.stats().local(machine.values().region().getRecord(Address.byteOffset(address), records,
                    recordAt[i], length, ValueRecord.EXTENT));
            } else {
                batch.readRecord(host, Region.VALUES, Address.byteOffset(address), records, recordAt[i], length,
                    ValueRecord.EXTENT);
            }
        }
        batch.awaitAll();
    }
}
