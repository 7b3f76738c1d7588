package io.pragh.server.node;

import io.pragh.address.Address;
import io.pragh.durability.Durability;
import io.pragh.durability.Recovery;
import io.pragh.fabric.FabricException;
import io.pragh.keys.Placement;
import io.pragh.runtime.DutyExecutor;
import io.pragh.store.MachineStore;
import io.pragh.store.Session;
import io.pragh.values.ValueRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Crash recovery between machines (paper section 5), triggered when membership reports a machine lost (its
 * ZooKeeper node disappeared) and again when the machine comes back: a restarted machine has
 * reloaded its own partition from its log (its {@link Durability} did that at open) and announces itself with a
 * RESTARTED message to every peer before it serves clients. Each survivor then
 * <ol>
 *   <li>reclaims the values it hosted for the machine's keys, which the machine has reloaded at home (found through
 *       the location cache, checked against the home's address words; see {@link #reclaimOrphans});</li>
 *   <li>drops every location-cache entry whose key is homed on the restarted machine or whose value was hosted
 *       there (those addresses name memory that no longer exists);</li>
 *   <li>puts back the values of its own keys that had migrated to the restarted machine and were lost with it:
 *       their address words point there; each key's durable value (read without side effects from this home's log,
 *       the invariant being that a key's durable record lives at its home) replaces the lost address in one CAS
 *       ({@link MachineStore#restore}); the log fences those keys before the read, so an update whose LOG reaches
 *       it afterwards is refused retryably rather than acknowledged and then lost;</li>
 *   <li>acknowledges, so that the restarted machine serves only once no survivor still points into its memory.</li>
 * </ol>
 * Until then, operations that need the crashed machine fail fast with a retryable error (the fabric refuses an
 * unreachable peer at once, and the client RPC checks reachability before forwarding an update).
 *
 * <p>Messages (extension types): RESTARTED {@code | 16 | nonce (8) |}, RECOVERED {@code | 17 | nonce (8) |
 * restored (4) |}.
 *
 * <pre>{@code
 * CrashRecovery r = new CrashRecovery(store, durability);   // before store.attach(fabric)
 * ...
 * int acknowledged = r.announceRestart(15_000);             // after attach, before serving clients
 * }</pre>
 */
public final class CrashRecovery implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CrashRecovery.class);

    public static final int RESTARTED = 16;
    public static final int RECOVERED = 17;
    private static final int RESTARTED_LENGTH = 9;
    private static final int RECOVERED_LENGTH = 13;
    /** How often a restarted machine tells a peer again that has not acknowledged ({@link #announceRestart}). */
    private static final long ANNOUNCE_AGAIN_MILLIS = 250;

    private final MachineStore store;
    private final Durability durability;
    private final Placement placement;
    private final DutyExecutor worker;
    private final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    /**
     * The restart (its nonce) of each peer this machine last recovered from, touched only on {@link #worker}: a
     * RESTARTED told again is acknowledged again without a second recovery, which, once the peer serves, could take
     * back values that migrated to it since.
     */
    private final Map<Integer, Long> recoveredRestarts = new HashMap<>();
    private final long nonce = System.nanoTime() ^ Double.doubleToLongBits(Math.random());
    private volatile long restoredTotal;
    private volatile long reclaimedTotal;

    public CrashRecovery(MachineStore store, Durability durability) {
        this.store = store;
        this.durability = durability;
        this.placement = store.placement();
        this.worker = DutyExecutor.single("m" + store.id() + "-recovery");
        store.registerHandler(RESTARTED, this::onRestarted);
        store.registerHandler(RECOVERED, this::onRecovered);
    }

    /** Values this machine put back from its log because the machine they had migrated to crashed. */
    public long restoredTotal() {
        return restoredTotal;
    }

    /**
     * Orphaned records this machine reclaimed: values it hosted for keys of a machine that crashed and has since
     * reloaded them at home.
     */
    public long reclaimedTotal() {
        return reclaimedTotal;
    }

    /**
     * Tells every reachable peer that this machine restarted and waits until each has recovered from it or
     * {@code waitMillis} passed. Returns the peers that acknowledged; unreachable peers are skipped (they have
     * nothing of this machine's that is not already gone with them). Peers that have not answered are told again every
     * {@link #ANNOUNCE_AGAIN_MILLIS}: a peer's acknowledgement can fail on its way back (its fabric still backing off
     * from an attempt to reach this machine before it listened), and recovering twice restores nothing twice.
     */
    public Set<Integer> announceRestart(long waitMillis) {
        UnsafeBuffer msg = new UnsafeBuffer(new byte[RESTARTED_LENGTH]);
        msg.putByte(0, (byte) RESTARTED);
        msg.putLong(1, nonce);
        Set<Integer> told = new HashSet<>();
        for (int peer = 0; peer < store.machineCount(); peer++) {
            if (peer == store.id()) {
                continue;
            }
            try {
                store.send(peer, msg, 0, msg.capacity());
                told.add(peer);
            } catch (FabricException e) {
                LOG.warn("machine {} cannot tell machine {} that it restarted ({}); it is presumably down too",
                    store.id(), peer, e.getMessage());
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        long again = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ANNOUNCE_AGAIN_MILLIS);
        while (!acknowledged.containsAll(told) && System.nanoTime() < deadline) {
            if (System.nanoTime() > again) {
                for (int peer : told) {
                    if (!acknowledged.contains(peer)) {
                        try {
                            store.send(peer, msg, 0, msg.capacity());
                        } catch (FabricException e) {
                            // Told once already: it may still answer, or the deadline ends the wait.
                        }
                    }
                }
                again = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ANNOUNCE_AGAIN_MILLIS);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        Set<Integer> out = new HashSet<>(acknowledged);
        out.retainAll(told);
        return out;
    }

    private void onRestarted(int from, DirectBuffer msg, int off, int len) {
        if (len != RESTARTED_LENGTH || from == store.id()) {
            LOG.warn("machine {} dropped a malformed RESTARTED from {}", store.id(), from);
            return;
        }
        long theirNonce = msg.getLong(off + 1);
        worker.execute(() -> {
            int restored = 0;
            try {
                Long done = recoveredRestarts.put(from, theirNonce);
                if (done == null || done != theirNonce) {
                    restored = recoverFrom(from);
                }
            } catch (RuntimeException e) {
                LOG.error("machine {} failed to recover from machine {}'s crash", store.id(), from, e);
            }
            UnsafeBuffer ack = new UnsafeBuffer(new byte[RECOVERED_LENGTH]);
            ack.putByte(0, (byte) RECOVERED);
            ack.putLong(1, theirNonce);
            ack.putInt(9, restored);
            try {
                store.send(from, ack, 0, ack.capacity());
            } catch (FabricException e) {
                LOG.warn("machine {} cannot acknowledge machine {}'s restart: {}", store.id(), from, e.getMessage());
            }
        });
    }

    private void onRecovered(int from, DirectBuffer msg, int off, int len) {
        if (len != RECOVERED_LENGTH || msg.getLong(off + 1) != nonce) {
            LOG.warn("machine {} dropped a RECOVERED from {} that answers no restart of this incarnation", store.id(),
                from);
            return;
        }
        acknowledged.add(from);
    }

    /** Runs {@link #recoverFrom} on this machine's recovery thread: what membership calls when a machine dies. */
    public void recoverFromAsync(int crashed) {
        worker.execute(() -> {
            try {
                recoverFrom(crashed);
            } catch (RuntimeException e) {
                LOG.error("machine {} failed to recover from machine {}'s crash", store.id(), crashed, e);
            }
        });
    }

    /**
     * What a survivor does about machine {@code crashed} (see the class comment); returns the values put back.
     * Public so that a membership service that sees a machine die can run it at once rather than at its restart.
     */
    public synchronized int recoverFrom(int crashed) {
        List<long[]> hostedForCrashed = new ArrayList<>();
        store.cache().invalidateIf((key, address) -> {
            int home = placement.home(key);
            if (home == crashed && Address.isMigrated(address) && Address.host(address, home) == store.id()) {
                hostedForCrashed.add(new long[] {key, address});
            }
            return home == crashed || Address.host(address, home) == crashed;
        });
        reclaimOrphans(hostedForCrashed);
        List<long[]> lost = new ArrayList<>();
        store.keys().forEach((key, address, slot) -> {
            if (Address.isMigrated(address) && Address.host(address, store.id()) == crashed) {
                lost.add(new long[] {key, address, slot});
            }
        });
        if (lost.isEmpty()) {
            return 0;
        }
        Set<Long> keys = new HashSet<>();
        for (long[] l : lost) {
            keys.add(l[0]);
        }
        int restored = 0;
        try {
            // Fenced before the read: a LOG of these keys that reaches the log after it is refused, not acknowledged.
            restored = restoreAll(lost, durability.durableValuesToRestore(keys));
        } finally {
            durability.endRestore(keys);
        }
        restoredTotal += restored;
        LOG.info("machine {} recovered from machine {}: restored {} of {} values that had migrated there", store.id(),
            crashed, restored, lost.size());
        return restored;
    }

    private int restoreAll(List<long[]> lost, Map<Long, Recovery.DurableValue> durable) {
        int restored = 0;
        for (long[] l : lost) {
            long key = l[0];
            Recovery.DurableValue d = durable.get(key);
            try {
                // One CAS from the lost address to the durable value: an update never finds the key empty. A lost
                // CAS means the word moved on (a second recovery did it); the key is then left as it is.
                boolean done = d == null
                    ? store.restore(key, l[1], 0, null, 0, 0).get(30, TimeUnit.SECONDS)
                    : store.restore(key, l[1], d.version(), new UnsafeBuffer(d.value()), 0, d.value().length)
                        .get(30, TimeUnit.SECONDS);
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
     * Values of the crashed machine's keys that had migrated here are orphans once it reloaded its partition from its
     * log: its address words no longer name them. They are found through the location cache (the migrator cached
     * their addresses; entries evicted meanwhile are missed here and left to the store's background
     * {@link io.pragh.store.LeakScanner}, which finds every record no address word names) and
     * each is reclaimed only if its home, asked now, names another record and the record still holds the key.
     * While the crashed machine is still down nothing can be asked, and nothing is reclaimed.
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

    @Override
    public void close() {
        worker.close();
    }
}
