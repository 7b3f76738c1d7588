package io.pragh.gremlin.analytics;

import io.pragh.analytics.AdjacencyScan;
import io.pragh.analytics.ScanOptions;
import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.AdjacencySegments;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.gremlin.structure.SegmentedLists;
import io.pragh.store.MachineStore;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;

/**
 * The out-lists a whole-graph algorithm reads, in the core's analytics scans ({@link AdjacencyScan}): for each
 * machine this process runs (every machine of an embedded cluster, a server's own), the lists it homes are found in
 * its key region and read where they lie when local, and in large chunked one-sided READs, sorted by host and
 * offset, when they live elsewhere (a memory node above all); the lists homed on machines of other processes are
 * looked up at their homes in batches and read in chunks too. A list whose value is a supernode's tail (head
 * entries: sealed segments elsewhere) is read whole through the store ({@link SegmentedLists}). A store that runs no
 * machine (a client's) reads every list through the store.
 *
 * <p>One use per algorithm run, on one thread: the scans are not thread-safe.
 *
 * <p>Example: {@code new OutLists(store, ScanOptions.defaults(), labels).ofAll(vids, (vid, buf, off, n) -> ...);}
 */
final class OutLists {
    /** Receives one list: {@code entries} 16-byte entries ({@link Adjacency}) at {@code offset} of {@code buffer}. */
    @FunctionalInterface
    interface Receiver {
        void accept(long vid, DirectBuffer buffer, int offset, int entries);
    }

    private final GraphStore store;
    /** The edge labels read (their OUT keys); every label of the graph when the caller asked for all. */
    private final int[] labels;
    private final boolean[] wanted;
    private final List<MachineStore> machines;
    private final AdjacencyScan[] scans;
    /** Scan index by machine id, -1 for machines of other processes. */
    private final int[] local;
    private long[] keysBuffer = new long[256];
    private final UnsafeBuffer wrapped = new UnsafeBuffer(new byte[0]);
    private long farReads;
    private long farValues;
    private long storeReads;

    OutLists(final GraphStore store, final ScanOptions options, final int[] labels) {
        this.store = store;
        this.labels = labels.clone();
        this.wanted = new boolean[GraphKeys.MAX_LABEL + 1];
        for (final int l : labels) {
            wanted[l] = true;
        }
        this.machines = store.localMachines();
        this.scans = new AdjacencyScan[machines.size()];
        this.local = new int[store.machines()];
        Arrays.fill(local, -1);
        for (int i = 0; i < machines.size(); i++) {
            scans[i] = new AdjacencyScan(machines.get(i), options);
            local[machines.get(i).id()] = i;
        }
    }

    /** Every out-list of the labels of the vertices {@code vids} (all of the graph's: what PageRank reads). */
    void ofAll(final long[] vids, final Receiver receiver) {
        if (scans.length == 0) {
            throughStore(vids, vids.length, receiver);
            return;
        }
        for (final AdjacencyScan scan : scans) {
            scan.scanKeys(key -> GraphKeys.kind(key) == GraphKeys.OUT && wanted[GraphKeys.label(key)],
                (key, buf, off, len) -> deliver(key, buf, off, len, receiver));
        }
        // The lists homed on machines of other processes: looked up at their homes, read in chunks.
        int n = 0;
        for (final long vid : vids) {
            final int home = homeOf(GraphKeys.out(vid, 0));
            if (home < 0 || local[home] < 0) {
                for (final int label : labels) {
                    n = add(n, GraphKeys.out(vid, label));
                }
            }
        }
        if (n > 0) {
            scans[0].read(keysBuffer, n, (key, buf, off, len) -> deliver(key, buf, off, len, receiver));
        }
        tally();
    }

    /** The out-lists of the labels of {@code vids[0..count)} (a BFS level). */
    void of(final long[] vids, final int count, final Receiver receiver) {
        if (scans.length == 0) {
            throughStore(vids, count, receiver);
            return;
        }
        // Split by the scan that reads them: a local machine's own keys, or the first scan's lookups for the rest.
        final long[][] byScan = new long[scans.length][];
        final int[] sizes = new int[scans.length];
        for (int i = 0; i < count; i++) {
            final int home = homeOf(GraphKeys.out(vids[i], 0));
            final int s = home >= 0 && local[home] >= 0 ? local[home] : 0;
            for (final int label : labels) {
                if (byScan[s] == null) {
                    byScan[s] = new long[Math.max(16, count * labels.length)];
                }
                if (sizes[s] == byScan[s].length) {
                    byScan[s] = Arrays.copyOf(byScan[s], sizes[s] * 2);
                }
                byScan[s][sizes[s]++] = GraphKeys.out(vids[i], label);
            }
        }
        for (int s = 0; s < scans.length; s++) {
            if (sizes[s] > 0) {
                scans[s].read(byScan[s], sizes[s], (key, buf, off, len) -> deliver(key, buf, off, len, receiver));
            }
        }
        tally();
    }

    private int homeOf(final long key) {
        return machines.isEmpty() ? -1 : machines.get(0).placement().home(key);
    }

    private int add(final int n, final long key) {
        if (n == keysBuffer.length) {
            keysBuffer = Arrays.copyOf(keysBuffer, n * 2);
        }
        keysBuffer[n] = key;
        return n + 1;
    }

    /** An ordinary list as it lies; a segmented one (a head entry first) whole through the store. */
    private void deliver(final long key, final DirectBuffer buf, final int off, final int len,
                         final Receiver receiver) {
        final int entries = Adjacency.countOfLength(len);
        if (entries > 0 && AdjacencySegments.isHead(buf.getLong(off, ByteOrder.LITTLE_ENDIAN))) {
            storeReads++;
            final byte[] whole = SegmentedLists.get(store, key);
            if (whole != null && whole.length > 0) {
                wrapped.wrap(whole);
                receiver.accept(GraphKeys.vid(key), wrapped, 0, Adjacency.count(whole));
            }
            return;
        }
        receiver.accept(GraphKeys.vid(key), buf, off, entries);
    }

    /** A store that runs no machine: each list whole through the store, in batches. */
    private void throughStore(final long[] vids, final int count, final Receiver receiver) {
        final long[] keys = new long[count * labels.length];
        int n = 0;
        for (int i = 0; i < count; i++) {
            for (final int label : labels) {
                keys[n++] = GraphKeys.out(vids[i], label);
            }
        }
        final byte[][] lists = SegmentedLists.getAll(store, keys);
        storeReads += n;
        for (int k = 0; k < n; k++) {
            if (lists[k] != null && lists[k].length > 0) {
                wrapped.wrap(lists[k]);
                receiver.accept(GraphKeys.vid(keys[k]), wrapped, 0, Adjacency.count(lists[k]));
            }
        }
    }

    private void tally() {
        long reads = 0;
        long values = 0;
        for (final AdjacencyScan scan : scans) {
            reads += scan.farReads();
            values += scan.farValues();
        }
        farReads = reads;
        farValues = values;
    }

    /** One-sided READs of values on other machines these reads issued (chunks, or one per value on demand). */
    long farReads() {
        return farReads;
    }

    /** Values these reads took from other machines' memory. */
    long farValues() {
        return farValues;
    }

    /** Lists read whole through the store (segmented ones, or all of them without a machine here). */
    long storeReads() {
        return storeReads;
    }
}
