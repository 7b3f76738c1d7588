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

/**
 * The background scan of paper section 5 that finds value memory leaked by an interrupted migration (a copy written
 * at the target whose key was never switched to it, or a source copy a migrator that died never invalidated) and
 * gives it back. It walks every record this machine hosts ({@link ValueRegion#forEachRecord}) and asks each record's
 * key's home, afresh, which record its address word names. A record no word names is a suspect; one that is still
 * unnamed and unchanged at a later scan, a grace period after it was first seen, and that the allocator has not
 * handed out again meanwhile ({@link ValueRegion#watch}), is leaked: its header is zeroed by CAS and it goes through
 * this machine's own reclaim ring like any invalidated record, to be freed after the reclaim lease.
 *
 * <p>Why it never frees a live record: a record is published only by a CAS that happens within the reclaim lease of
 * the lookup that preceded its allocation (updates and migrations check the lease right before their CAS), so an
 * allocation older than the grace period (twice the reclaim lease) that is still unnamed will never be named.
 * Records waiting in a reclaim ring or lease have a zero header and are not visited at all. When a home cannot be
 * asked (unreachable), its records count as named.
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
                System.err.println("pragh: leak scan of machine " + store.id() + " failed: " + e);
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
        long visited = values.forEachRecord((unit, header, key, version) -> {
            if (named(unit, key)) {
                return;
            }
            Suspect prior = previous.remove(unit);
            if (prior == null || !prior.same(header, key, version) || !values.watched(unit)) {
                values.watch(unit);
                next.put(unit, new Suspect(header, key, version, nowNanos));
            } else if (nowNanos - prior.firstSeenNanos() < graceNanos) {
                next.put(unit, prior);
            } else {
                values.unwatch(unit);
                if (reclaim(unit, prior)) {
                    freed[0]++;
                }
            }
        });
        // Suspects not met again went away (named, invalidated or freed): stop watching them.
        previous.keySet().forEach(values::unwatch);
        suspects = next;
        suspected = next.size();
        walked += visited;
        scans++;
        return freed[0];
    }

    /**
     * Whether the key's home word names the record at {@code unit} here. Unknown counts as named: a home that cannot be
     * read, or a key word that is no valid key (a record being overwritten).
     */
    private boolean named(long unit, long key) {
        try {
            if (!session.locate(key, false)) {
                return false;
            }
            long address = session.address();
            return Address.host(address, session.home()) == store.id() && Address.offsetUnits(address) == unit;
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
            || region.getLong(offset + ValueRecord.VERSION_OFFSET) != s.version() || named(unit, s.key())) {
            return false;
        }
        // Zero the header only if it is still the one suspected: readers holding a stale address see it invalid.
        if (region.compareAndExchangeLong(offset, s.header(), 0) != s.header()) {
            return false;
        }
        long units = ValueRecord.unitsOf(s.header());
        try {
            store.reclaimRings().post(store.id(), Address.local(units, unit));
        } catch (PraghException e) {
            System.err.println("pragh: leak scan of machine " + store.id() + " could not post a leaked record: "
                + e.getMessage());
            return false;
        }
        reclaimed++;
        reclaimedBytes += store.values().classUnits(units) << 3;
        return true;
    }
}
