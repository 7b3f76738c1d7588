package io.pragh.store;

import io.pragh.fabric.Endpoint;
import io.pragh.reclaim.ReclaimRings;
import io.pragh.reclaim.Reclaimer;
import io.pragh.values.ValueRegion;

/**
 * What keeps one machine's value region reusable, started when its store attaches to a fabric and stopped before
 * the store's memory is freed: the GC thread ({@link Reclaimer}), which frees records once the reclaim lease has
 * passed, the rings peers post the records they invalidated here to ({@link ReclaimRings}), the back-pressure that
 * makes writers wait for it when the region is full of garbage, and the background {@link LeakScanner}. The store
 * owns these threads (rather than the machine around it) because reclaiming is part of its memory contract.
 *
 * <pre>{@code
 * StoreReclamation reclamation = StoreReclamation.start(store, regions, endpoint);
 * reclamation.rings().post(host, address);                  // a record invalidated on host, freed there later
 * boolean stopped = reclamation.stop(CLOSE_PATIENCE_MILLIS);  // before the regions are freed
 * }</pre>
 */
final class StoreReclamation {
    private final Reclaimer reclaimer;
    private final ReclaimRings rings;
    private final LeakScanner leakScanner;

    private StoreReclamation(MachineStore store, StoreRegions regions, Endpoint endpoint) {
        StoreConfig config = store.config();
        int machines = store.machineCount();
        ValueRegion values = regions.values();
        this.reclaimer = new Reclaimer(store.id(), regions.reclaimRegion(), machines, config.reclaimRingSlots(),
            values, config.leases());
        this.rings = new ReclaimRings(store.id(), machines, config.reclaimRingSlots(), endpoint,
            regions.reclaimRegion(), reclaimer);
        values.applyBackPressure(reclaimer::awaitingReclaimBytes, StoreRegions.backPressureNanos(config.leases()));
        this.leakScanner = new LeakScanner(store, config.leakScanMillis());
    }

    /** Builds the GC side of a store that has just attached to {@code endpoint} and starts its threads. */
    static StoreReclamation start(MachineStore store, StoreRegions regions, Endpoint endpoint) {
        StoreReclamation r = new StoreReclamation(store, regions, endpoint);
        r.reclaimer.start();
        if (store.config().leakScanMillis() > 0) {
            r.leakScanner.start();
        }
        return r;
    }

    Reclaimer reclaimer() {
        return reclaimer;
    }

    ReclaimRings rings() {
        return rings;
    }

    LeakScanner leakScanner() {
        return leakScanner;
    }

    /**
     * Stops the leak scan, then the GC thread, waiting up to {@code patienceMillis} for each.
     *
     * @return whether both threads have ended (neither can touch the store's memory any more)
     */
    boolean stop(long patienceMillis) {
        boolean stopped = leakScanner.stop(patienceMillis);
        return reclaimer.stop(patienceMillis) & stopped;
    }
}
