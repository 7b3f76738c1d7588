package io.pragh.store;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.fabric.FabricException;
import io.pragh.memory.ChunkedRegion;
import io.pragh.runtime.DutyThread;
import io.pragh.values.ValueRecord;
import io.pragh.values.ValueRegion;
import java.util.concurrent.TimeUnit;
import org.agrona.collections.Long2ObjectHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background scan of paper section 5 that finds value memory leaked by an interrupted migration (a copy written
 * at the target whose key was never switched to it, or a source copy a migrator that died never invalidated) and
 * gives it back. It walks every live record this machine hosts ({@link ValueRegion#forEachRecord}) and asks each
 * record's key's home, afresh, which allocation its address word names. A record no word names is a suspect; one that
 * is still unnamed and unchanged (same header, generation included, key and version: not handed out again) at a
 * later scan, a grace period after it was first seen, is leaked: its header is invalidated by a CAS that expects
 * exactly the header suspected, and it goes to this machine's GC like any invalidated record.
 *
 * <p>Why it never frees a record that is, or may become, the live value of its key. A record can become named only
 * by the CAS of the operation that wrote it, and every such operation marks its record until the CAS's outcome is
 * settled: a PUT, an insert, a restore or a load writes it {@linkplain ValueRecord#INVALIDATION_PENDING pending}, a
 * migration tracks its copy ({@link MachineStore#copyInFlight}) until it has rewritten its header pending; a CAS
 * whose outcome is in doubt keeps that mark until it is settled ({@link UncertainUpdates},
 * {@code io.pragh.migration.UnfinishedMigrations}). The scan skips marked records, so it never races a CAS, however
 * late the CAS lands: no lease argument is needed. A record that lost its word (superseded, or a migration's source)
 * will never be named again, since no word returns to an allocation it left; but while the record its key's word
 * names is pending, it counts as named: a migration's source can still grow by appends in place until that migration
 * has carried them over and invalidated it itself. Superseding operations invalidate their
 * old record themselves; the grace period (twice the reclaim lease) only leaves them the time to do so before the
 * scan does it for them, and if both try, the CAS on the header lets one of them win. Invalidated and free records
 * are not visited at all. When a home cannot be asked (unreachable), its records count as named.
 *
 * <p>Runs on its own duty thread every {@link StoreConfig#leakScanMillis} (default
 * {@link #DEFAULT_INTERVAL_MILLIS}, 0 turns it off); counts are kept for monitoring.
 *
 * <pre>{@code
 * LeakScanner scan = store.leakScanner();
 * long reclaimed = scan.reclaimed();
 * }</pre>
 */
public final class LeakScanner extends DutyThread {
    private static final Logger LOG = LoggerFactory.getLogger(LeakScanner.class);

    /** One scan a minute: leaks are rare (a crash mid-migration), and a scan reads every hosted record's home word. */
    public static final long DEFAULT_INTERVAL_MILLIS = 60_000;

    private final MachineStore store;
    private final long intervalNanos;
    private final long graceNanos;
    private Long2ObjectHashMap<Suspect> suspects = new Long2ObjectHashMap<>();
    private Session session;
    private long nextScanNanos;
    private volatile long scans;
    private volatile long walked;
    private volatile long suspected;
    private volatile long reclaimed;
    private volatile long reclaimedBytes;
    private volatile long skippedInFlight;

    private record Suspect(long header, long key, long version, long firstSeenNanos) {
        boolean same(long h, long k, long v) {
            return header == h && key == k && version == v;
        }
    }

    LeakScanner(MachineStore store, long intervalMillis) {
        super("m" + store.id() + "-leakscan", TimeUnit.MILLISECONDS.toNanos(Math.max(1, intervalMillis)));
        this.store = store;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
        this.graceNanos = TimeUnit.MILLISECONDS.toNanos(2 * store.config().leases().reclaimMillis());
        this.nextScanNanos = System.nanoTime() + intervalNanos;
    }

    /** Scans done. */
    public long scans() {
        return scans;
    }

    /** Records visited over all scans. */
    public long walked() {
        return walked;
    }

    /** Records no address word named at the last scan, waiting out their grace period. */
    public long suspected() {
        return suspected;
    }

    /** Leaked records handed to the reclaim ring so far. */
    public long reclaimed() {
        return reclaimed;
    }

    /** Bytes of those records, size-class rounding included. */
    public long reclaimedBytes() {
        return reclaimedBytes;
    }

    /**
     * Records skipped because the operation that wrote them had not settled its CAS yet (pending bit set, or a
     * migration's copy in flight), over all scans.
     */
    public long skippedInFlight() {
        return skippedInFlight;
    }

    /** The grace period: twice the reclaim lease. */
    public long graceMillis() {
        return TimeUnit.NANOSECONDS.toMillis(graceNanos);
    }

    @Override
    protected int doWork() {
        long now = System.nanoTime();
        if (now >= nextScanNanos) {
            try {
                scanOnce(now);
            } catch (RuntimeException e) {
                LOG.warn("leak scan of machine {} failed", store.id(), e);
            }
            nextScanNanos = System.nanoTime() + intervalNanos;
        }
        return 0;
    }

    /**
     * One scan at {@code nowNanos} (the {@link System#nanoTime} clock): suspects what no word names, reclaims the
     * suspects of earlier scans whose grace period passed. Returns the records reclaimed by this scan. Public so
     * tests can drive it; the duty thread calls it every interval.
     */
    public synchronized int scanOnce(long nowNanos) {
        if (session == null) {
            session = store.newSession();
        }
        ValueRegion values = store.values();
        Long2ObjectHashMap<Suspect> previous = suspects;
        Long2ObjectHashMap<Suspect> next = new Long2ObjectHashMap<>();
        int[] freed = {0};
        long[] skipped = {0};
        long visited = values.forEachRecord((unit, header, key, version) -> {
            if (ValueRecord.isInvalidationPending(header) || store.regions().copyInFlight(unit)) {
                skipped[0]++; // its operation is still deciding whether it is published
                return;
            }
            if (namedHere(unit, header, key) || named(unit, header, key)) {
                return;
            }
            Suspect prior = previous.remove(unit);
            if (prior == null || !prior.same(header, key, version)) {
                next.put(unit, new Suspect(header, key, version, nowNanos));
            } else if (nowNanos - prior.firstSeenNanos() < graceNanos) {
                next.put(unit, prior);
            } else if (reclaim(unit, prior)) {
                freed[0]++;
            }
        });
        skippedInFlight += skipped[0];
        suspects = next;
        suspected = next.size();
        walked += visited;
        scans++;
        return freed[0];
    }

    /**
     * Whether this machine's own key region has a word naming the allocation at {@code unit}: a record loaded here
     * ({@link MachineStore#load}) for a key this machine is about to become the home of, such as a shard baseline's
     * copy, which the shard table still sends {@link Session#locate} (and readers) to the old owner for until every
     * machine flips it. A shard move copies all its shards before flipping any, minutes at LUBM-64, so without this
     * the scan reclaimed such copies as leaks, and the first reader after the flip found their memory gone.
     */
    private boolean namedHere(long unit, long header, long key) {
        long slot = store.keys().find(key);
        if (slot < 0) {
            return false;
        }
        long address = store.keys().address(slot);
        return Address.host(address, store.id()) == store.id() && Address.offsetUnits(address) == unit
            && Address.generation(address) == ValueRecord.generationOf(header);
    }

    /**
     * Whether the key's home word names the allocation at {@code unit} here (its offset and generation). Unknown
     * counts as named: a home that cannot be read, or a key word that is no valid key (a record being overwritten).
     */
    private boolean named(long unit, long header, long key) {
        try {
            if (!session.locate(key, false)) {
                return false;
            }
            long address = session.address();
            int host = Address.host(address, session.home());
            if (host == store.id() && Address.offsetUnits(address) == unit
                && Address.generation(address) == ValueRecord.generationOf(header)) {
                return true;
            }
            // The record the word names is still settling: if a migration published it, this record may be its
            // source, which appends in place can still grow and which the migration alone may invalidate, once it
            // has carried those appends over (io.pragh.migration.SourceInvalidation).
            long named = store.regions().readHeader(host, Address.byteOffset(address));
            return ValueRecord.isLiveAt(named, address) && ValueRecord.isInvalidationPending(named);
        } catch (FabricException e) {
            return true;
        } catch (PraghException | IllegalArgumentException e) {
            return true;
        }
    }

    private boolean reclaim(long unit, Suspect s) {
        ChunkedRegion region = store.values().region();
        long offset = unit << 3;
        if (region.getLong(offset + ValueRecord.KEY_OFFSET) != s.key()
            || ValueRecord.versionOf(s.header(), region.getLong(offset + ValueRecord.VERSION_OFFSET)) != s.version()
            || namedHere(unit, s.header(), s.key()) || named(unit, s.header(), s.key())) {
            return false;
        }
        // Invalidated only if the header is still exactly the one suspected (same allocation, still not pending):
        // readers holding an old address then see it invalid.
        long invalidated = ValueRecord.invalidated(s.header());
        if (store.regions().casHeader(store.id(), offset, s.header(), invalidated) != s.header()) {
            return false;
        }
        long address = ValueRecord.addressOf(s.header(), unit);
        store.reclaimRings().post(store.id(), address);
        reclaimed++;
        reclaimedBytes += Address.byteSize(address);
        return true;
    }
}
