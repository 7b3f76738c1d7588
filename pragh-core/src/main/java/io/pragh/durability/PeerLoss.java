package io.pragh.durability;

import io.pragh.address.Address;
import io.pragh.fabric.FabricException;
import io.pragh.keys.Placement;
import io.pragh.store.MachineStore;
import io.pragh.store.Session;
import io.pragh.values.ValueRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a surviving machine does about a peer whose memory is gone (paper section 5): the peer crashed, or restarted
 * with new, empty regions (a server process coming back, an embedded cluster's {@code restartMachine}, a memory node
 * of the far-memory tier among them). The survivor, in {@link #recoverFrom}:
 * <ol>
 *   <li>reclaims the values it hosted for the peer's keys, which the peer has reloaded at home from its own log
 *       (found through the location cache, checked against the home's address words; see {@link #reclaimOrphans});</li>
 *   <li>drops every location-cache entry whose key is homed on the peer or whose value was hosted there (those
 *       addresses name memory that no longer exists), and every read replica held here of such a value
 *       ({@link io.pragh.store.Replicas#dropOf}: its host may be a survivor still granting renewals of an orphan);</li>
 *   <li>puts back the values of its own keys that had migrated to the peer and were lost with it: their address
 *       words point there; each key's durable value (read without side effects from this home's log, the invariant
 *       being that a key's durable record lives at its home) replaces the lost address in one CAS
 *       ({@link MachineStore#restore}); the log fences those keys before the read, so an update whose LOG reaches it
 *       afterwards is refused retryably rather than acknowledged and then lost.</li>
 * </ol>
 * Calls are serialized: a second recovery from the same loss finds nothing more to put back.
 *
 * <pre>{@code
 * PeerLoss loss = new PeerLoss(store, durability);
 * int restored = loss.recoverFrom(2);   // machine 2 lost its memory
 * }</pre>
 */
public final class PeerLoss {
    private static final Logger LOG = LoggerFactory.getLogger(PeerLoss.class);
    /** How long one restore CAS may take before the key is left as it is (and named in the log). */
    private static final long RESTORE_PATIENCE_SECONDS = 30;

    private final MachineStore store;
    private final Durability durability;
    private final Placement placement;
    private volatile long restoredTotal;
    private volatile long reclaimedTotal;

    /** {@code durability} may be null for a store that logs nothing: it then has nothing to put back. */
    public PeerLoss(MachineStore store, Durability durability) {
        this.store = store;
        this.durability = durability;
        this.placement = store.placement();
    }

    /** Values this machine put back from its log because the machine they had migrated to lost them. */
    public long restoredTotal() {
        return restoredTotal;
    }

    /** Orphaned records reclaimed: values hosted here for keys of a lost machine that has reloaded them at home. */
    public long reclaimedTotal() {
        return reclaimedTotal;
    }

    /** Recovers this machine from the loss of machine {@code lost}'s memory (see the class comment); the values put back. */
    public synchronized int recoverFrom(int lost) {
        List<long[]> hostedForLost = new ArrayList<>();
        store.cache().invalidateIf((key, address) -> {
            int home = placement.home(key);
            if (home == lost && Address.isMigrated(address) && Address.host(address, home) == store.id()) {
                hostedForLost.add(new long[] {key, address});
            }
            return home == lost || Address.host(address, home) == lost;
        });
        // After the cache: a replica placed meanwhile from a cached address of the lost machine's is dropped here too
        // (both under the replicas' lock); one placed after this reads the restarted home's word.
        store.replication().replicas().dropOf(lost);
        reclaimOrphans(hostedForLost);
        List<long[]> gone = new ArrayList<>();
        store.keys().forEach((key, address, slot) -> {
            if (Address.isMigrated(address) && Address.host(address, store.id()) == lost) {
                gone.add(new long[] {key, address, slot});
            }
        });
        if (gone.isEmpty()) {
            return 0;
        }
        if (durability == null) {
            throw new IllegalStateException("machine " + store.id() + " lost " + gone.size() + " values with machine "
                + lost + " and logs nothing to put them back from: a cluster whose machines restart must be durable");
        }
        Set<Long> keys = new HashSet<>();
        for (long[] g : gone) {
            keys.add(g[0]);
        }
        // Replicas of these values that the lost host granted are not in this machine's registry: updates here wait
        // out their leases before they become visible (docs/replicas.md, "Host crash or restart").
        store.replication().registry().quarantine();
        // Nor could another machine migrate them and update them there until those replicas have run out.
        store.putBacks().restoring();
        int restored = 0;
        try {
            // Fenced before the read: a LOG of these keys that reaches the log after it is refused, not acknowledged.
            restored = restoreAll(gone, durability.durableValuesToRestore(keys));
        } finally {
            durability.endRestore(keys);
        }
        restoredTotal += restored;
        LOG.info("machine {} recovered from machine {}: restored {} of {} values that had migrated there", store.id(),
            lost, restored, gone.size());
        return restored;
    }

    private int restoreAll(List<long[]> gone, Map<Long, Recovery.DurableValue> durable) {
        int restored = 0;
        for (long[] g : gone) {
            long key = g[0];
            Recovery.DurableValue d = durable.get(key);
            try {
                // One CAS from the lost address to the durable value: an update never finds the key empty. A lost
                // CAS means the word moved on (a second recovery did it); the key is then left as it is.
                boolean done = d == null
                    ? store.restore(key, g[1], 0, null, 0, 0).get(RESTORE_PATIENCE_SECONDS, TimeUnit.SECONDS)
                    : store.restore(key, g[1], d.version(), new UnsafeBuffer(d.value()), 0, d.value().length)
                        .get(RESTORE_PATIENCE_SECONDS, TimeUnit.SECONDS);
                if (done && d != null) {
                    restored++;
                }
            } catch (Exception e) {
                LOG.warn("machine {} could not restore key {}", store.id(), key, e);
            }
        }
        return restored;
    }

    /**
     * Values of the lost machine's keys that had migrated here are orphans once it reloaded its partition from its
     * log: its address words no longer name them. They are found through the location cache (the migrator cached
     * their addresses; entries evicted meanwhile are missed here and left to the store's background
     * {@link io.pragh.store.LeakScanner}, which finds every record no address word names) and each is reclaimed only
     * if its home, asked now, names another record and the record still holds the key. While the lost machine is
     * still down nothing can be asked, and nothing is reclaimed.
     */
    private void reclaimOrphans(List<long[]> candidates) {
        if (candidates.isEmpty()) {
            return;
        }
        Session session = store.newSession();
        int reclaimed = 0;
        for (long[] c : candidates) {
            long key = c[0];
            long address = c[1];
            try {
                if (session.locate(key, false) && session.address() == address) {
                    continue; // still the live value (migrated here again by the new incarnation)
                }
            } catch (FabricException e) {
                return; // the home is down: its address words cannot be read, so nothing is known to be orphaned
            }
            long offset = Address.byteOffset(address);
            if (store.values().region().getLong(offset + ValueRecord.KEY_OFFSET) != key
                || !store.invalidate(store.id(), address)) {
                continue; // already invalidated, or the slot holds another allocation now (its generation differs)
            }
            // Invalidated first (a reader still holding the address sees an invalid record and looks again), then
            // handed to the GC.
            store.reclaimRings().post(store.id(), address);
            reclaimed++;
        }
        reclaimedTotal += reclaimed;
        if (reclaimed > 0) {
            LOG.info("machine {} reclaimed {} orphaned values of a restarted machine", store.id(), reclaimed);
        }
    }
}
