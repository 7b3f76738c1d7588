package io.pragh.server.node;

import io.pragh.durability.Durability;
import io.pragh.durability.PeerLoss;
import io.pragh.fabric.FabricException;
import io.pragh.runtime.DutyExecutor;
import io.pragh.store.MachineStore;
import java.util.HashMap;
import java.util.HashSet;
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
 * RESTARTED message to every peer before it serves clients. Each survivor then recovers from the machine's lost
 * memory ({@link PeerLoss}: orphans reclaimed, cache entries into it dropped, its own values that had migrated there
 * put back from its log) and acknowledges, so that the restarted machine serves only once no survivor still points
 * into its memory.
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
    private final PeerLoss loss;
    private final DutyExecutor worker;
    private final Set<Integer> acknowledged = ConcurrentHashMap.newKeySet();
    /**
     * The restart (its nonce) of each peer this machine last recovered from, touched only on {@link #worker}: a
     * RESTARTED told again is acknowledged again without a second recovery, which, once the peer serves, could take
     * back values that migrated to it since.
     */
    private final Map<Integer, Long> recoveredRestarts = new HashMap<>();
    private final long nonce = System.nanoTime() ^ Double.doubleToLongBits(Math.random());
    /** Tells unanswering peers of the restart again after the machine serves ({@link #startRetelling}). */
    private Thread reteller;

    public CrashRecovery(MachineStore store, Durability durability) {
        this.store = store;
        this.loss = new PeerLoss(store, durability);
        this.worker = DutyExecutor.single("m" + store.id() + "-recovery");
        store.registerHandler(RESTARTED, this::onRestarted);
        store.registerHandler(RECOVERED, this::onRecovered);
    }

    /** Values this machine put back from its log because the machine they had migrated to crashed. */
    public long restoredTotal() {
        return loss.restoredTotal();
    }

    /**
     * Orphaned records this machine reclaimed: values it hosted for keys of a machine that crashed and has since
     * reloaded them at home.
     */
    public long reclaimedTotal() {
        return loss.reclaimedTotal();
    }

    /**
     * Tells every reachable peer that this machine restarted and waits until each has recovered from it or
     * {@code waitMillis} passed. Returns the peers that acknowledged; peers unreachable when first told are not waited
     * for (if down, they have nothing of this machine's that is not already gone with them). But the values this
     * machine reloaded may migrate and change only once every peer has recovered from the restart
     * ({@link io.pragh.store.PutBackFence#everyPeerRecovered}), an unreachable one too, since a partition is not a
     * crash: until then, or until the fence's time runs out, they stay at home, unchanged, and the peers that have not
     * answered are told again in the background. Peers that have not answered are told again every
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
        Set<Integer> silent = unacknowledged();
        if (silent.isEmpty()) {
            store.putBacks().everyPeerRecovered(); // also a cluster of one, where no acknowledgement comes
        } else if (store.putBacks().holds()) {
            LOG.warn("machine {}: machines {} have not recovered from its restart; the values it reloaded stay at home,"
                + " unchanged, until they do (they are told again meanwhile) or until no cached address or replica"
                + " from before the restart can be used ({} ms after the reload)", store.id(), silent,
                store.replication().orphanWaitMillis());
            startRetelling(msg);
        }
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
        if (unacknowledged().isEmpty()) {
            // No peer points into this machine's previous life any more: its reloaded values may move and change.
            store.putBacks().everyPeerRecovered();
        }
    }

    /** Peers that have not recovered from this machine's restart: unreachable ones too (cut off is not down). */
    private Set<Integer> unacknowledged() {
        Set<Integer> out = new HashSet<>();
        for (int peer = 0; peer < store.machineCount(); peer++) {
            if (peer != store.id() && !acknowledged.contains(peer)) {
                out.add(peer);
            }
        }
        return out;
    }

    /**
     * Tells the peers that have not recovered from this restart again, every {@link #ANNOUNCE_AGAIN_MILLIS}, while
     * the values reloaded here are held for them: a peer that starts later (a whole cluster restarting) or that a
     * partition cut off then answers, and the hold ends before its time runs out.
     */
    private synchronized void startRetelling(UnsafeBuffer msg) {
        if (reteller != null) {
            return;
        }
        reteller = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted() && store.putBacks().holds()) {
                Set<Integer> silent = unacknowledged();
                if (silent.isEmpty()) {
                    return;
                }
                for (int peer : silent) {
                    try {
                        store.send(peer, msg, 0, msg.capacity());
                    } catch (FabricException stillUnreachable) {
                        // Told again at the next round, or the hold's time ends it.
                    }
                }
                try {
                    Thread.sleep(ANNOUNCE_AGAIN_MILLIS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "m" + store.id() + "-restart-retell");
        reteller.setDaemon(true);
        reteller.start();
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
     * What a survivor does about machine {@code crashed} ({@link PeerLoss#recoverFrom}); returns the values put back.
     * Public so that a membership service that sees a machine die can run it at once rather than at its restart.
     */
    public int recoverFrom(int crashed) {
        return loss.recoverFrom(crashed);
    }

    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            t = reteller;
        }
        if (t != null) {
            t.interrupt();
            try {
                t.join(TimeUnit.SECONDS.toMillis(10));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        worker.close();
    }
}
