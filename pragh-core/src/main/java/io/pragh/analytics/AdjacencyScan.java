package io.pragh.analytics;

import io.pragh.address.Address;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import io.pragh.keys.KeyLayout;
import io.pragh.memory.ChunkedRegion;
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
 * (a header check, no copy); values on other machines are either gathered, sorted by host and offset, coalesced into
 * READs of up to {@link ScanOptions#chunkBytes} and read {@link ScanOptions#depth} at a time with the next batch in
 * flight while the current one is visited, or read one GET at a time ({@link ScanOptions.FarReads#ON_DEMAND}).
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

    private final MachineStore store;
    private final ScanOptions options;
    private final int regionChunkBytes;
    private final UnsafeBuffer[][] buffers;
    private OpBatch[] batches;
    /** Far values of the current scan: key, address, host; sorted through {@link #order}. */
    private long[] farKeys = new long[256];
    private long[] farAddresses = new long[256];
    private int farCount;
    private long[] order = new long[0];
    /** Chunks: first and end (exclusive) index into {@link #order}, host, region offset, length. */
    private int[] chunkFirst = new int[64];
    private int[] chunkEnd = new int[64];
    private int chunkCount;
    private long farReads;

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

    /** One-sided READs of other machines' memory this scan issued so far (chunks, or one per value on demand). */
    public long farReads() {
        return farReads;
    }

    /** Visits the out-list of {@code label} of every vertex homed here that {@code wanted} accepts. */
    public void scan(int label, LongPredicate wanted, Visitor visitor) {
        farCount = 0;
        int self = store.id();
        ChunkedRegion local = store.values().region();
        store.keys().forEach((key, address, slot) -> {
            if (KeyLayout.kind(key) != KeyLayout.OUT || KeyLayout.label(key) != label || Address.isNone(address)
                || Address.isTombstone(address) || !wanted.test(KeyLayout.vid(key))) {
                return;
            }
            int host = Address.host(address, self);
            if (host == self) {
                long offset = Address.byteOffset(address);
                UnsafeBuffer chunk = local.chunkFor(offset);
                int at = local.indexInChunk(offset);
                // Acquire: the bytes below the length this header states were written before it (ValueRecord).
                long header = chunk.getLongVolatile(at);
                if (ValueRecord.isValid(chunk, at, address, key) && !ValueRecord.isInvalidationPending(header)) {
                    visitor.visit(KeyLayout.vid(key), chunk, at + ValueRecord.HEADER_BYTES,
                        ValueRecord.payloadLengthOf(header));
                } else {
                    onDemand(key, visitor);
                }
            } else if (options.mode() == ScanOptions.FarReads.ON_DEMAND
                || Address.byteSize(address) > options.chunkBytes()) {
                onDemand(key, visitor);
            } else {
                addFar(key, address);
            }
        });
        if (farCount > 0) {
            readFar(visitor);
        }
    }

    private void onDemand(long key, Visitor visitor) {
        ValueView v = store.session().get(key);
        if (Address.host(store.session().address(), store.session().home()) != store.id()) {
            farReads++;
        }
        if (v != null) {
            visitor.visit(KeyLayout.vid(key), v.buffer(), v.offset(), v.length());
        }
    }

    private void addFar(long key, long address) {
        if (farCount == farKeys.length) {
            farKeys = Arrays.copyOf(farKeys, farCount * 2);
            farAddresses = Arrays.copyOf(farAddresses, farCount * 2);
        }
        farKeys[farCount] = key;
        farAddresses[farCount++] = address;
    }

    private int host(int i) {
        return Address.host(farAddresses[i], store.id());
    }

    private long offset(int i) {
        return Address.byteOffset(farAddresses[i]);
    }

    private void readFar(Visitor visitor) {
        // One primitive sort: host above offset units above the index (20 bits); larger scans sort indices instead.
        if (order.length < farCount) {
            order = new long[farCount];
        }
        long[] packed = new long[farCount];
        for (int i = 0; i < farCount; i++) {
            packed[i] = ((long) host(i) << 56) | (Address.offsetUnits(farAddresses[i]) << 20) | (i & 0xFFFFF);
        }
        if (farCount > 0xFFFFF) {
            sortByHostAndOffset();
        } else {
            Arrays.sort(packed, 0, farCount);
            for (int i = 0; i < farCount; i++) {
                order[i] = packed[i] & 0xFFFFF;
            }
        }
        buildChunks();
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
            int first = g * options.depth();
            for (int c = first; c < Math.min(chunkCount, first + options.depth()); c++) {
                visitChunk(c, buffers[g & 1][c - first], visitor);
            }
            batch.clear();
        }
    }

    /** More far values than the packed sort can index: an index sort by (host, offset). */
    private void sortByHostAndOffset() {
        Integer[] idx = new Integer[farCount];
        for (int i = 0; i < farCount; i++) {
            idx[i] = i;
        }
        Arrays.sort(idx, (a, b) -> host(a) != host(b) ? Integer.compare(host(a), host(b))
            : Long.compare(offset(a), offset(b)));
        for (int i = 0; i < farCount; i++) {
            order[i] = idx[i];
        }
    }

    /** Coalesces sorted far values into READs of at most chunkBytes, never across a region chunk or a host. */
    private void buildChunks() {
        chunkCount = 0;
        int i = 0;
        while (i < farCount) {
            int first = (int) order[i];
            long start = offset(first);
            int end = i + 1;
            while (end < farCount) {
                int next = (int) order[end];
                long stop = offset(next) + Address.byteSize(farAddresses[next]);
                if (host(next) != host(first) || stop - start > options.chunkBytes()
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
        OpBatch batch = batches[set];
        int first = group * options.depth();
        for (int c = first; c < Math.min(chunkCount, first + options.depth()); c++) {
            int head = (int) order[chunkFirst[c]];
            int tail = (int) order[chunkEnd[c] - 1];
            long start = offset(head);
            int length = (int) (offset(tail) + Address.byteSize(farAddresses[tail]) - start);
            batch.read(host(head), Region.VALUES, start, buffers[set][c - first], 0, length);
            farReads++;
        }
        batch.post();
    }

    private void visitChunk(int c, UnsafeBuffer chunk, Visitor visitor) {
        long start = offset((int) order[chunkFirst[c]]);
        for (int k = chunkFirst[c]; k < chunkEnd[c]; k++) {
            int i = (int) order[k];
            int at = (int) (offset(i) - start);
            long header = chunk.getLong(at);
            if (ValueRecord.isValid(chunk, at, farAddresses[i], farKeys[i]) && !ValueRecord.isInvalidationPending(header)) {
                visitor.visit(KeyLayout.vid(farKeys[i]), chunk, at + ValueRecord.HEADER_BYTES,
                    ValueRecord.payloadLengthOf(header));
            } else {
                onDemand(farKeys[i], visitor); // moved or changed since its address was read
            }
        }
    }
}
