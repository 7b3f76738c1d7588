package io.pragh.server.node;

import io.pragh.coordinator.DecisionLog;
import io.pragh.coordinator.Decisions;
import io.pragh.coordinator.ReplicaPolicy;
import io.pragh.fabric.FabricException;
import io.pragh.monitor.Monitor;
import io.pragh.store.MachineStore;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries a coordinator's decisions out: each goes to the machine it concerns as a DECISION message
 * ({@link PolicyMessages}), or runs here when that machine is this one; an approval is first recorded
 * ({@link ApprovalRecovery#record}) and is not sent when it could not be. The receiving side too: a DECISION from
 * the coordinator becomes a counted MIGRATE or a change of what the monitor tracks.
 *
 * <pre>{@code
 * DecisionDelivery delivery = new DecisionDelivery(store, monitor, migrations, recovery, decisionLog);
 * store.registerHandler(PolicyMessages.DECISION, delivery::onDecision);
 * int sent = delivery.apply(coordinator.endInterval(reports));   // on the control thread
 * }</pre>
 */
final class DecisionDelivery {
    private static final Logger LOG = LoggerFactory.getLogger(DecisionDelivery.class);

    private final MachineStore store;
    private final Monitor monitor;
    private final CountedMigrations migrations;
    private final ApprovalRecovery recovery;
    /** The coordinator's decisions, one log line per interval (written on the control thread only). */
    private final DecisionLog decisionLog;
    private final AtomicLong approvals = new AtomicLong();
    private final AtomicLong replicasPlaced = new AtomicLong();
    /**
     * Where replica offers are placed: placing one READs the key's word and record remotely and waits, which a
     * fabric's delivery thread (where DECISIONs arrive) must not do.
     */
    private final Executor placing;

    DecisionDelivery(MachineStore store, Monitor monitor, CountedMigrations migrations, ApprovalRecovery recovery,
                     DecisionLog decisionLog, Executor placing) {
        this.placing = placing;
        this.store = store;
        this.monitor = monitor;
        this.migrations = migrations;
        this.recovery = recovery;
        this.decisionLog = decisionLog;
    }

    /** Approvals carried out here or sent to their targets since this machine started. */
    long approvals() {
        return approvals.get();
    }

    /** Carries the decisions out; returns how many approvals it sent (an approval not recorded is not). */
    int apply(Decisions d) {
        int sent = 0;
        for (Decisions.Track t : d.track()) {
            deliver(t.machine(), DecisionKind.TRACK, t.key());
        }
        for (Decisions.Track t : d.untrack()) {
            deliver(t.machine(), DecisionKind.UNTRACK, t.key());
        }
        for (Decisions.Approval a : d.approvals()) {
            if (!recovery.record(a)) {
                continue;
            }
            // Counted once it reached its target: a waiter compares approvals with the MIGRATEs targets received.
            if (deliver(a.target(), DecisionKind.MIGRATE_HERE, a.key())) {
                approvals.incrementAndGet();
                decisionLog.add(a);
                sent++;
            }
        }
        return sent;
    }

    /** Sends each replica offer to its machine (or places it here); returns how many were sent or placed. */
    int offer(List<ReplicaPolicy.Choice> offers) {
        int sent = 0;
        for (ReplicaPolicy.Choice c : offers) {
            if (deliver(c.machine(), DecisionKind.REPLICATE_HERE, c.key(), c.readsPerSecond())) {
                sent++;
            }
        }
        return sent;
    }

    /** Replicas this machine placed (or kept) on the replica policy's offers. */
    long replicasPlaced() {
        return replicasPlaced.get();
    }

    private boolean deliver(int machineId, DecisionKind kind, long key) {
        return deliver(machineId, kind, key, 0);
    }

    /** Carries a decision out here or sends it to {@code machineId}; returns whether it was carried out or sent. */
    private boolean deliver(int machineId, DecisionKind kind, long key, double rate) {
        if (machineId == store.id()) {
            carryOut(kind, key, rate);
            return true;
        }
        UnsafeBuffer msg = kind == DecisionKind.REPLICATE_HERE ? PolicyMessages.replicaOffer(key, rate)
            : PolicyMessages.decision(kind, key);
        try {
            store.send(machineId, msg, 0, msg.capacity());
            return true;
        } catch (FabricException e) {
            LOG.warn("machine {} did not get a decision on key {}: {}", machineId, key, e.getMessage());
            return false;
        }
    }

    /** The store's handler of DECISION messages: a malformed one is dropped with one log line. */
    void onDecision(int from, DirectBuffer msg, int off, int len) {
        DecisionKind kind = PolicyMessages.decisionKind(msg, off, len);
        if (kind == null) {
            LOG.warn("machine {} dropped a malformed DECISION from machine {}", store.id(), from);
            return;
        }
        carryOut(kind, PolicyMessages.decisionKey(msg, off),
            kind == DecisionKind.REPLICATE_HERE ? PolicyMessages.offerRate(msg, off) : 0);
    }

    private void carryOut(DecisionKind kind, long key, double rate) {
        switch (kind) {
            case MIGRATE_HERE -> migrations.migrate(key);
            case TRACK -> {
                try {
                    monitor.track(key);
                } catch (IllegalArgumentException e) {
                    // A coordinator asks a key's home to track it; anything else is a peer's bug, not ours to crash on.
                    LOG.warn("machine {} dropped a DECISION: {}", store.id(), e.getMessage());
                }
            }
            case UNTRACK -> monitor.untrack(key);
            case REPLICATE_HERE -> placing.execute(() -> {
                if (store.replication().replicas().place(key, rate)) {
                    replicasPlaced.incrementAndGet();
                }
            });
        }
    }
}
