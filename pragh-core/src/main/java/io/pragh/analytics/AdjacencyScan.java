package io.pragh.analytics;

import io.pragh.address.Address;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import io.pragh.keys.KeyLayout;
import io.pragh.memory.ChunkedRegion;
import io.pragh.reclaim.Leases;
import io.pragh.store.MachineStore;
import io.pragh.store.ValueView;
import io.pragh.values.ValueRecord;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.LongPredicate;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One compute machine's scan of the out-lists of one label that it homes: local values are read where they lie
 * (a header check, no copy), in address order; values on other machines are either gathered, sorted by host and
 * offset, coalesced into READs of up to {@link ScanOptions#chunkBytes} and read {@link ScanOptions#depth} at a time
 * with the next batch in flight while the current one is visited, or read one GET at a time
 * ({@link ScanOptions.FarReads#ON_DEMAND}).
 * A copied record whose header no longer matches its address (it moved or changed meanwhile) is read again by GET.
 *
 * <p>Not thread-safe: one scan per thread; run it on a worker of its machine (GETs use that thread's session).
 *
 * <pre>{@code
 * AdjacencyScan scan = new AdjacencyScan(machine.store(), ScanOptions.defaults());
 * scan.scan(0, vid -> true, (vid, buf, off, len) -> edges[0] += len / 8);
 * }</pre>
 */
public final class AdjacencyScan {
    /** Receives one adjacency list: {@code length / 8} neighbour ids at {@code offset} of {@code buffer}. */
    @FunctionalInterface
    public interface Visitor {
        void visit(long vid, DirectBuffer buffer, int offset, int length);
    }

    /**
     * Receives one value by its key (any layout: a property graph's lists hold 16-byte entries): {@code length} bytes
     * at {@code offset} of {@code buffer}, valid only during the call.
     */
    @FunctionalInterface
    public interface KeyVisitor {
        void visit(long key, DirectBuffer buffer, int offset, int length);
    }

    /** A frontier above keys / WALK_SHARE walks the key region (sequential) rather than look each vertex up. */
    static final int WALK_SHARE = 16;

    private final MachineStore store;
    private final ScanOptions options;
    private final int regionChunkBytes;
    private final UnsafeBuffer[][] buffers;
    private OpBatch[] batches;
    /** Values gathered by the current scan (local ones and those to read in chunks); sorted through {@link #order}. */
    private long[] gatheredKeys = new long[256];
    private long[] gatheredAddresses = new long[256];
    /** The machine each gathered value lives on: its address word read against its key's home. */
    private int[] gatheredHosts = new int[256];
    private int gathered;
    private long[] order = new long[0];
    /** Chunks: first and end (exclusive) index into {@link #order}, host, region offset, length. */
    private int[] chunkFirst = new int[64];
    private int[] chunkEnd = new int[64];
    private int chunkCount;
    /** When each batch's copies started ({@link #post}): checked against the leases once they have ended. */
    private final long[] batchStartedAt = new long[2];
    /** The clock before the current scan read its first address word: the start of every address's leases. */
    private long addressesObtainedAt;
    private long[] remoteKeys = new long[256];
    private long farReads;
    private long farValues;
    private long farBytes;

    public AdjacencyScan(MachineStore store, ScanOptions options) {
        this.store = store;
        this.options = options;
        this.regionChunkBytes = store.config().chunkBytes();
        this.buffers = new UnsafeBuffer[2][options.depth()];
        if (options.mode() == ScanOptions.FarReads.CHUNKED) {
            for (UnsafeBuffer[] set : buffers) {
                for (int i = 0; i < set.length; i++) {
                    set[i] = new UnsafeBuffer(ByteBuffer.allocateDirect(options.chunkBytes()));
                }
            }
        }
    }

    /** The machine whose values this scan reads in place (the one whose keys it looks up). */
    public int machineId() {
        return store.id();
    }

    /** One-sided READs of other machines' memory this scan issued so far (chunks, or one per value on demand). */
    public long farReads() {
        return farReads;
    }

    /** Values this scan read from other machines' memory so far (in chunks or one by one). */
    public long farValues() {
        return farValues;
    }

    /**
     * Bytes this scan's far READs copied so far: a chunk's whole span (the far values it was posted for and whatever
     * lies between them), or a value's record on demand.
     */
    public long farBytes() {
        return farBytes;
    }

    /** Visits the out-list of {@code label} of every vertex homed here that {@code wanted} accepts. */
    public void scan(int label, LongPredicate wanted, Visitor visitor) {
        scanKeys(key -> KeyLayout.kind(key) == KeyLayout.OUT && KeyLayout.label(key) == label
            && wanted.test(KeyLayout.vid(key)), byVertex(visitor));
    }

    /**
     * Visits the value of every key homed here that {@code wanted} accepts (a walk of the key region), local ones in
     * place and far ones as the options say.
     *
     * <p>Example: {@code scan.scanKeys(k -> KeyLayout.kind(k) == KeyLayout.OUT, (key, buf, off, len) -> ...);}
     */
    public void scanKeys(LongPredicate wanted, KeyVisitor visitor) {
        begin();
        store.keys().forEach((key, address, slot) -> {
            if (wanted.test(key)) {
                consider(key, address, visitor);
            }
        });
        if (gathered > 0) {
            readGathered(visitor);
        }
    }

    /**
     * Visits the values of {@code keys[0..count)}, each once, homed anywhere: the address words of keys homed here
     * are read in place, the others' found by batched lookups at their homes
     * ({@link io.pragh.store.Session#locateAll}); then local values are read in place and far ones as the options
     * say (in chunks per host: a value homed elsewhere that lives on its home is read from there in chunks too).
     * Keys without a value are not visited.
     *
     * <p>Example: {@code scan.read(keys, n, (key, buf, off, len) -> degree[i++] = len / 16);}
     */
    public void read(long[] keys, int count, KeyVisitor visitor) {
        begin();
        int remote = 0;
        for (int i = 0; i < count; i++) {
            long key = keys[i];
            if (store.placement().home(key) == store.id()) {
                long slot = store.keys().find(key);
                if (slot >= 0) {
                    consider(key, store.keys().address(slot), visitor);
                }
            } else {
                if (remote == remoteKeys.length) {
                    remoteKeys = Arrays.copyOf(remoteKeys, remote * 2);
                }
                remoteKeys[remote++] = key;
            }
        }
        if (remote > 0) {
            store.session().locateAll(remoteKeys, 0, remote, (index, key, address, obtainedAt) -> {
                addressesObtainedAt = Math.min(addressesObtainedAt, obtainedAt);
                consider(key, address, visitor);
            });
        }
        if (gathered > 0) {
            readGathered(visitor);
        }
    }

    private void begin() {
        gathered = 0;
        // The clock first: a stall before the words are read must shorten their leases, never stretch them.
        addressesObtainedAt = Leases.nowMillis();
    }

    private static KeyVisitor byVertex(Visitor visitor) {
        return (key, buffer, offset, length) -> visitor.visit(KeyLayout.vid(key), buffer, offset, length);
    }

    /**
     * Visits the out-list of {@code label} of the first {@code count} of {@code vids} (each homed here, each once):
     * a key lookup per vertex, where {@link #scan(int, LongPredicate, Visitor)} walks the whole key region, so a
     * small BFS level costs what it asks for and not the machine's whole key count. A list of more than a
     * {@link #WALK_SHARE}th of the keys is found by the walk instead: a lookup is a cache miss, a walk's key is not.
     */
    public void scan(int label, long[] vids, int count, Visitor visitor) {
        KeyVisitor byKey = byVertex(visitor);
        if (count > store.keys().size() / WALK_SHARE) {
            VertexSet wanted = new VertexSet();
            for (int i = 0; i < count; i++) {
                wanted.add(vids[i]);
            }
            scan(label, wanted::contains, visitor);
            return;
        }
        begin();
        for (int i = 0; i < count; i++) {
            long key = KeyLayout.key(vids[i], label, KeyLayout.OUT);
            long slot = store.keys().find(key);
            if (slot >= 0) {
                consider(key, store.keys().address(slot), byKey);
            }
        }
        if (gathered > 0) {
            readGathered(byKey);
        }
    }

    /** Local and chunkable values are gathered to be read in address order; the rest are read now by GET. */
    private void consider(long key, long address, KeyVisitor visitor) {
        if (Address.isNone(address) || Address.isTombstone(address)) {
            return;
        }
        // A word that names no other machine means the key's home, which need not be this machine (read()).
        int host = Address.host(address, store.placement().home(key));
        if (host == store.id() || (options.mode() == ScanOptions.FarReads.CHUNKED
            && Address.byteSize(address) <= options.chunkBytes())) {
            gather(key, address, host); // local ones too: visited in address order, not the key region's hash order
        } else {
            onDemand(key, visitor);
        }
    }

    /** A local value where it lies: a header check, no copy. */
    private void visitLocal(int i, KeyVisitor visitor) {
        ChunkedRegion local = store.values().region();
        long address = gatheredAddresses[i];
        long offset = Address.byteOffset(address);
        UnsafeBuffer chunk = local.chunkFor(offset);
        int at = local.indexInChunk(offset);
        // Acquire: the bytes below the length this header states were written before it (ValueRecord).
        long header = chunk.getLongVolatile(at);
        if (ValueRecord.isValid(chunk, at, address, gatheredKeys[i]) && !ValueRecord.isInvalidationPending(header)) {
            visitor.visit(gatheredKeys[i], chunk, at + ValueRecord.HEADER_BYTES,
                ValueRecord.payloadLengthOf(header));
        } else {
            onDemand(gatheredKeys[i], visitor);
        }
    }

    private void onDemand(long key, KeyVisitor visitor) {
        ValueView v = store.session().get(key);
        if (Address.host(store.session().address(), store.session().home()) != store.id()) {
            farReads++;
            farValues++;
            farBytes += v == null ? 0 : ValueRecord.HEADER_BYTES + v.length();
        }
        if (v != null) {
            visitor.visit(key, v.buffer(), v.offset(), v.length());
        }
    }

    private void gather(long key, long address, int host) {
        if (gathered == gatheredKeys.length) {
            gatheredKeys = Arrays.copyOf(gatheredKeys, gathered * 2);
            gatheredAddresses = Arrays.copyOf(gatheredAddresses, gathered * 2);
            gatheredHosts = Arrays.copyOf(gatheredHosts, gathered * 2);
        }
        gatheredKeys[gathered] = key;
        gatheredHosts[gathered] = host;
        gatheredAddresses[gathered++] = address;
    }

    private int host(int i) {
        return gatheredHosts[i];
    }

    private long offset(int i) {
        return Address.byteOffset(gatheredAddresses[i]);
    }

    private void readGathered(KeyVisitor visitor) {
        // One primitive sort: host above offset units above the index (20 bits); larger scans sort indices instead.
        if (order.length < gathered) {
            order = new long[gathered];
        }
        long[] packed = new long[gathered];
        for (int i = 0; i < gathered; i++) {
            packed[i] = ((long) host(i) << 56) | (Address.offsetUnits(gatheredAddresses[i]) << 20) | (i & 0xFFFFF);
        }
        if (gathered > 0xFFFFF) {
            sortByHostAndOffset();
        } else {
            Arrays.sort(packed, 0, gathered);
            for (int i = 0; i < gathered; i++) {
                order[i] = packed[i] & 0xFFFFF;
            }
        }
        // Sorted by host, then offset: this machine's own values are visited in place, in address order (the
        // sequential access a chunked copy gets), and only the others go on to be chunked.
        int remote = 0;
        for (int k = 0; k < gathered; k++) {
            int i = (int) order[k];
            if (host(i) == store.id()) {
                visitLocal(i, visitor);
            } else {
                order[remote++] = i;
            }
        }
        if (remote == 0) {
            return;
        }
        buildChunks(remote);
        if (batches == null) {
            batches = new OpBatch[] {store.endpoint().newBatch(options.depth()), store.endpoint().newBatch(options.depth())};
        }
        int groups = (chunkCount + options.depth() - 1) / options.depth();
        post(0, 0);
        for (int g = 0; g < groups; g++) {
            if (g + 1 < groups) {
                post(g + 1, (g + 1) & 1); // prefetch: the next batch travels while this one is visited
            }
            OpBatch batch = batches[g & 1];
            batch.awaitAll();
            // As a GET's copy, checked once it has ended: a copy that took the reclaim lease or longer may have read
            // a header before its record was freed and payload after the memory was handed out again (Leases), and
            // one through addresses older than both leases may have read a record nobody could invalidate.
            boolean holds = store.config().leases().readHolds(addressesObtainedAt, batchStartedAt[g & 1]);
            int first = g * options.depth();
            for (int c = first; c < Math.min(chunkCount, first + options.depth()); c++) {
                visitChunk(c, buffers[g & 1][c - first], holds, visitor);
            }
            batch.clear();
        }
    }

    /** More far values than the packed sort can index: an index sort by (host, offset). */
    private void sortByHostAndOffset() {
        Integer[] idx = new Integer[gathered];
        for (int i = 0; i < gathered; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, (a, b) -> host(a) != host(b) ? Integer.compare(host(a), host(b))
            : Long.compare(offset(a), offset(b)));
        for (int i = 0; i < gathered; i++) {
            order[i] = idx[i];
        }
    }

    /**
     * Coalesces the first {@code count} sorted values (all on other machines) into READs of at most chunkBytes, never
     * across a region chunk, a host, or a gap of more than maxGapBytes between two of them (bytes copied for nothing).
     */
    private void buildChunks(int count) {
        chunkCount = 0;
        int i = 0;
        while (i < count) {
            int first = (int) order[i];
            long start = offset(first);
            int end = i + 1;
            while (end < count) {
                int next = (int) order[end];
                int previous = (int) order[end - 1];
                long stop = offset(next) + Address.byteSize(gatheredAddresses[next]);
                long gap = offset(next) - offset(previous) - Address.byteSize(gatheredAddresses[previous]);
                if (host(next) != host(first) || stop - start > options.chunkBytes() || gap > options.maxGapBytes()
                    || (start / regionChunkBytes) != ((stop - 1) / regionChunkBytes)) {
                    break;
                }
                end++;
            }
            if (chunkCount == chunkFirst.length) {
                chunkFirst = Arrays.copyOf(chunkFirst, chunkCount * 2);
                chunkEnd = Arrays.copyOf(chunkEnd, chunkCount * 2);
            }
            chunkFirst[chunkCount] = i;
            chunkEnd[chunkCount++] = end;
            i = end;
        }
    }

    private void post(int group, int set) {
        // The clock before any copy leaves (a batch may start an operation as it is added): the start their
        // duration is measured from once they have ended.
        batchStartedAt[set] = Leases.nowMillis();
        OpBatch batch = batches[set];
        int first = group * options.depth();
        for (int c = first; c < Math.min(chunkCount, first + options.depth()); c++) {
            int head = (int) order[chunkFirst[c]];
            int tail = (int) order[chunkEnd[c] - 1];
            long start = offset(head);
            int length = (int) (offset(tail) + Address.byteSize(gatheredAddresses[tail]) - start);
            batch.read(host(head), Region.VALUES, start, buffers[set][c - first], 0, length);
            farReads++;
            farValues += chunkEnd[c] - chunkFirst[c];
            farBytes += length;
        }
        batch.post();
    }

    private void visitChunk(int c, UnsafeBuffer chunk, boolean holds, KeyVisitor visitor) {
        long start = offset((int) order[chunkFirst[c]]);
        for (int k = chunkFirst[c]; k < chunkEnd[c]; k++) {
            int i = (int) order[k];
            int at = (int) (offset(i) - start);
            long header = chunk.getLong(at);
            if (holds && ValueRecord.isValid(chunk, at, gatheredAddresses[i], gatheredKeys[i])
                && !ValueRecord.isInvalidationPending(header)) {
                visitor.visit(gatheredKeys[i], chunk, at + ValueRecord.HEADER_BYTES,
                    ValueRecord.payloadLengthOf(header));
            } else {
                onDemand(gatheredKeys[i], visitor); // moved or changed since its address was read
            }
        }
    }
}
