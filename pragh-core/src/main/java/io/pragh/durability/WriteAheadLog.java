package io.pragh.durability;

import io.pragh.PraghException;
import io.pragh.runtime.DutyThread;
import io.pragh.store.MachineStore;
import io.pragh.store.UpdateLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write-ahead log of one machine: applied updates of the keys it is home to, appended by one log thread in
 * segment files {@code wal-<start position>.log}. Updates are acknowledged to their origins only after the log
 * wrote them (and, by policy, forced them to disk), so an acknowledged update survives a crash of its home. The log
 * thread calls {@link MachineStore#acknowledge} after that write and sync, and the store sends what other machines
 * must hear from threads of its own, so a slow or unreachable peer never holds up the log.
 * Positions are byte offsets over the whole log; a snapshot records the position it started at, and segments that
 * end before the newest snapshot's position are deleted.
 *
 * <pre>{@code
 * WriteAheadLog wal = new WriteAheadLog(dir, SyncPolicy.BATCH, store);
 * store.setUpdateLog(wal);
 * wal.start();
 * }</pre>
 */
public final class WriteAheadLog extends DutyThread implements UpdateLog {
    private static final Logger LOG = LoggerFactory.getLogger(WriteAheadLog.class);

    public static final long SEGMENT_BYTES = 64L << 20;
    private static final int WRITE_BUFFER = 1 << 20;

    /** What the log thread takes off its queue: a record to write (an update's, or a restore's), or a fence. */
    private record Pending(int kind, byte[] record, int origin, long request, long key, long version,
                           long queuedNanos) {
    }

    /**
     * A batch whose queue wait, write and sync, or acknowledgements took longer than this is logged with where the
     * time went: a durable update's record stays pending (and every GET of its key waits) until its home's log has
     * it, so a stall here looks, from outside, like an update left pending for good.
     */
    static final long SLOW_BATCH_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final int UPDATE = 0;
    private static final int RESTORE = 1;
    private static final int FENCE = 2;
    private static final int UNFENCE = 3;

    private final Path dir;
    private final SyncPolicy policy;
    private final MachineStore store;
    private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final ByteBuffer out = ByteBuffer.allocateDirect(WRITE_BUFFER);
    private final List<Pending> batch = new ArrayList<>();
    private final BitSet refused = new BitSet();
    /** Why each refused record of the batch was refused, in batch order: told when it was decided. */
    private final List<String> refusals = new ArrayList<>();
    private final RestoreFloors floors = new RestoreFloors();
    /** Appends queued so far, each counted before it is queued (see {@link #awaitWritten}). */
    private final AtomicLong accepted = new AtomicLong();
    /** Records taken off the queue and written out or refused; written by the log thread only. */
    private volatile long settled;
    private FileChannel segment;
    private volatile long segmentStart;
    private volatile long position;
    private volatile long appended;
    private volatile long syncs;
    /** Log position below which every byte is forced to disk (under {@link SyncPolicy#NONE}: where the log opened). */
    private volatile long synced;
    private volatile IOException failure;

    public WriteAheadLog(Path dir, SyncPolicy policy, MachineStore store) {
        // Every append wakes the log thread (enqueue), so an idle log may sleep: a short timed park would wake it tens
        // of thousands of times a second for nothing, on cores a busy host needs. The period is a safety net only.
        super("m" + store.id() + "-wal", TimeUnit.MILLISECONDS.toNanos(100));
        this.dir = dir;
        this.policy = policy;
        this.store = store;
        try {
            Files.createDirectories(dir);
            this.position = Segments.endPosition(dir);
            this.synced = position;
            openSegment(position);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the write-ahead log in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Log position after the last record written (a snapshot starts here). */
    public long position() {
        return position;
    }

    public long appended() {
        return appended;
    }

    public long syncs() {
        return syncs;
    }

    /** Log position below which every record is forced to disk: what a power loss cannot take. */
    public long syncedPosition() {
        return synced;
    }

    /** Appends this log took into its queue (written, refused, or still waiting for the log thread). */
    public long accepted() {
        return accepted.get();
    }

    /**
     * Waits until every record appended before this call is written out to the log's files (a read of them sees
     * it) or refused: a read of the files then misses no update that will be acknowledged. A home that puts back
     * lost values from its log ({@link Durability#durableValues}) needs that, since a LOG that arrived before the
     * read is acknowledged once written, and a value restored without it would lose an acknowledged update.
     *
     * <pre>{@code
     * wal.awaitWritten(30_000);
     * }</pre>
     *
     * @throws PraghException when the log thread has not got there within {@code timeoutMillis} (stuck or stopped)
     */
    public void awaitWritten(long timeoutMillis) {
        long target = accepted.get();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (settled < target) {
            if (!isRunning() || System.nanoTime() - deadline > 0) {
                if (settled >= target) {
                    break; // stopped after writing everything
                }
                throw new PraghException("the write-ahead log of machine " + store.id() + " has written " + settled
                    + " of the " + target + " records appended before a read of its files"
                    + (isRunning() ? " within " + timeoutMillis + " ms" : " and is stopped"));
            }
            wake();
            LockSupport.parkNanos(20_000);
        }
    }

    public SyncPolicy policy() {
        return policy;
    }

    /**
     * Whether records wait in this log and, if so, where its thread is: the slow-batch report comes only once a batch
     * is done, so a thread stuck for good (a record of the home's own left pending, its updates refused) said nothing.
     */
    @Override
    public String backlog() {
        long taken = accepted.get();
        long written = settled;
        if (written >= taken) {
            return "the write-ahead log of machine " + store.id() + " has written (or refused) all " + taken
                + " records it accepted";
        }
        return "the write-ahead log of machine " + store.id() + " has written (or refused) " + written + " of the "
            + taken + " records it accepted" + (isRunning() ? "" : " and is stopped") + "; its thread: "
            + describe(12);
    }

    @Override
    public void append(long key, long version, int mutatorId, DirectBuffer arg, int argOff, int argLen, int origin,
                       long request) {
        enqueue(UPDATE, key, version, mutatorId, arg, argOff, argLen, origin, request);
    }

    /** A restore's record: from it on, this log refuses records of the key below its version (see {@link #fence}). */
    @Override
    public void appendRestore(long key, long version, int mutatorId, DirectBuffer arg, int argOff, int argLen,
                              int origin, long request) {
        enqueue(RESTORE, key, version, mutatorId, arg, argOff, argLen, origin, request);
    }

    /**
     * Refuses (retryably) every record of {@code key} queued after this call, until the key's restore record
     * ({@link #appendRestore}) sets the lowest version accepted from then on, or {@link #unfence} ends the fence. A
     * home calls it before reading the durable value it will restore: an update whose LOG arrived after that read
     * is not in the restored value, so it must not be acknowledged.
     *
     * <pre>{@code
     * wal.fence(key);
     * wal.awaitWritten(30_000);   // then read the durable value, restore, and unfence if the restore did not happen
     * }</pre>
     */
    public void fence(long key) {
        enqueueMarker(FENCE, key);
    }

    /** Ends a {@link #fence} whose restore did not happen; harmless after one that did. */
    public void unfence(long key) {
        enqueueMarker(UNFENCE, key);
    }

    private void enqueueMarker(int kind, long key) {
        accepted.incrementAndGet();
        queue.add(new Pending(kind, null, -1, 0, key, 0, System.nanoTime()));
        wake();
    }

    private void enqueue(int kind, long key, long version, int mutatorId, DirectBuffer arg, int argOff, int argLen,
                         int origin, long request) {
        if (failure != null) {
            store.refuse(origin, request, "write-ahead log of machine " + store.id() + " failed: "
                + failure.getMessage());
            return;
        }
        byte[] bytes = new byte[LogRecord.PREFIX + LogRecord.bodyLength(argLen)];
        LogRecord.write(new UnsafeBuffer(bytes), 0, key, version, mutatorId, arg, argOff, argLen);
        // Counted before it is queued: whoever reads the count then waits for this record too (awaitWritten).
        accepted.incrementAndGet();
        queue.add(new Pending(kind, bytes, origin, request, key, version, System.nanoTime()));
        wake();
    }

    @Override
    protected int doWork() {
        Pending p;
        while (batch.size() < 4096 && (p = queue.poll()) != null) {
            batch.add(p);
        }
        if (batch.isEmpty()) {
            return 0;
        }
        int n = batch.size();
        long startNanos = System.nanoTime();
        int written = 0;
        IOException failed = null;
        refused.clear();
        refusals.clear();
        try {
            // Fences, restores and refusals are decided here, in queue order: that order is what makes them exact.
            for (int i = 0; i < n; i++) {
                Pending each = batch.get(i);
                switch (each.kind()) {
                    case FENCE -> floors.fence(each.key());
                    case UNFENCE -> floors.unfence(each.key());
                    default -> {
                        if (each.kind() == RESTORE) {
                            floors.restored(each.key(), each.version());
                        } else if (floors.refuses(each.key(), each.version())) {
                            refused.set(i);
                            refusals.add(floors.reason(each.key(), each.version(), store.id()));
                            continue;
                        }
                        write(each.record());
                        written++;
                        if (policy == SyncPolicy.ALWAYS) {
                            flush(true);
                        }
                    }
                }
            }
            flush(policy == SyncPolicy.BATCH);
        } catch (IOException e) {
            failed = e;
            failure = e;
        }
        long writtenNanos = System.nanoTime();
        // Before the acknowledgements: a reader waiting in awaitWritten needs the bytes out, not the peers told.
        settled += n;
        int refusal = 0;
        for (int i = 0; i < n; i++) {
            Pending each = batch.get(i);
            if (each.record() == null) {
                continue; // a fence marker: nobody waits for it
            }
            if (failed != null) {
                store.refuse(each.origin(), each.request(), "write-ahead log of machine " + store.id()
                    + " failed: " + failed.getMessage());
            } else if (refused.get(i)) {
                store.refuseRetryably(each.origin(), each.request(), refusals.get(refusal++));
            } else {
                store.acknowledge(each.origin(), each.request());
            }
        }
        if (failed == null) {
            appended += written;
        }
        reportIfSlow(batch.get(0), n, startNanos, writtenNanos, System.nanoTime());
        batch.clear();
        return n;
    }

    /**
     * Logs a batch that took longer than {@link #SLOW_BATCH_NANOS} anywhere on its way: waiting in the queue (the log
     * thread starved of CPU, or still busy with an earlier batch), being written and synced (the disk), or being
     * acknowledged. Acknowledging runs on this thread but never waits for a peer: it completes this machine's own
     * requests (with the commit observers and whatever callers chained to them) and hands what peers must be told,
     * the ACK to a peer origin and the settle of a record on a peer host, to that peer's lane
     * ({@code io.pragh.store.PeerSends}, which reports a slow peer itself). Time here is time those local
     * continuations took, and it holds up every later record.
     */
    private void reportIfSlow(Pending oldest, int n, long startNanos, long writtenNanos, long endNanos) {
        long queued = startNanos - oldest.queuedNanos();
        long writing = writtenNanos - startNanos;
        long acknowledging = endNanos - writtenNanos;
        if (queued > SLOW_BATCH_NANOS || writing > SLOW_BATCH_NANOS || acknowledging > SLOW_BATCH_NANOS) {
            LOG.warn("write-ahead log of machine {} was slow with a batch of {} record(s) (first key {}): {} ms queued,"
                + " {} ms writing and syncing ({}), {} ms acknowledging; the updates' records stayed pending meanwhile",
                store.id(), n, oldest.key(), TimeUnit.NANOSECONDS.toMillis(queued),
                TimeUnit.NANOSECONDS.toMillis(writing), policy, TimeUnit.NANOSECONDS.toMillis(acknowledging));
        }
    }

    private void write(byte[] record) throws IOException {
        if (position - segmentStart + record.length > SEGMENT_BYTES && position > segmentStart) {
            flush(policy != SyncPolicy.NONE);
            segment.close();
            openSegment(position);
        }
        int at = 0;
        while (at < record.length) {
            int n = Math.min(out.remaining(), record.length - at);
            out.put(record, at, n);
            at += n;
            if (!out.hasRemaining()) {
                drain();
            }
        }
        position += record.length;
    }

    private void drain() throws IOException {
        out.flip();
        while (out.hasRemaining()) {
            segment.write(out);
        }
        out.clear();
    }

    private void flush(boolean force) throws IOException {
        drain();
        if (force) {
            segment.force(false);
            syncs++;
            synced = position;
        }
    }

    private void openSegment(long start) throws IOException {
        segmentStart = start;
        segment = FileChannel.open(Segments.walFile(dir, start), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.APPEND);
        if (segment.size() != 0) {
            throw new PraghException("write-ahead log segment " + Segments.walFile(dir, start) + " already has "
                + segment.size() + " bytes; expected a new segment at position " + start);
        }
        if (policy != SyncPolicy.NONE) {
            // Forcing the segment's bytes does not force its name into the directory: without this, a power loss
            // could take the whole new segment, acknowledged records and all.
            Segments.forceDirectory(dir);
        }
    }

    /** Deletes segments that end at or before {@code position} (covered by a snapshot). */
    public void truncateBefore(long snapshotPosition) throws IOException {
        Segments.deleteWalBefore(dir, snapshotPosition, segmentStart);
    }

    @Override
    protected void onStop() {
        doWork();
        try {
            flush(policy != SyncPolicy.NONE);
            segment.close();
        } catch (IOException e) {
            LOG.warn("closing the write-ahead log in {} failed: {}", dir, e.getMessage());
        }
    }
}
