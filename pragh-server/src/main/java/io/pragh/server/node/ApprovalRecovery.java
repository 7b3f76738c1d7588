package io.pragh.server.node;

import io.pragh.coordinator.Coordinator;
import io.pragh.coordinator.Decisions;
import io.pragh.server.membership.ZooKeeperMembership;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where approved migrations sent values, kept where a coordinator's successor finds them (paper section 5): an
 * approval is recorded in ZooKeeper before it is sent, so a coordinator that dies between the two leaves it in doubt
 * but never unknown, and a newly elected coordinator is seeded with every recorded target, so it never weighs a key
 * against (or approves moving it from) a host the value already left. Without membership (one coordinator for the
 * cluster's life, machine 0) there is nothing to recover and every approval passes.
 *
 * <pre>{@code
 * ApprovalRecovery recovery = new ApprovalRecovery(machineId, membership);
 * Coordinator c = recovery.seed(new Coordinator(machines, placement, config), this::apply);
 * if (recovery.record(approval)) { send(approval); }
 * }</pre>
 */
final class ApprovalRecovery {
    private static final Logger LOG = LoggerFactory.getLogger(ApprovalRecovery.class);

    private final int machine;
    private final ZooKeeperMembership membership;
    /** Targets the last seeded coordinator got, -1 before any; read by tests and operators from any thread. */
    private volatile long seededTargets = -1;

    /** @param membership the cluster's ZooKeeper membership, or null without one */
    ApprovalRecovery(int machine, ZooKeeperMembership membership) {
        this.machine = machine;
        this.membership = membership;
    }

    /**
     * Seeds a fresh coordinator with every recorded target, carrying out (through {@code apply}) the tracking each
     * one asks for; returns it. Fails (ZooKeeper unreadable) rather than return a coordinator that does not know.
     */
    Coordinator seed(Coordinator fresh, Consumer<Decisions> apply) {
        if (membership != null) {
            Map<Long, Integer> recorded = membership.recordedTargets();
            recorded.forEach((key, target) -> apply.accept(fresh.seedHost(key, target)));
            seededTargets = recorded.size();
            if (!recorded.isEmpty()) {
                LOG.info("machine {} coordinates, seeded with {} recorded migration targets", machine, recorded.size());
            }
        }
        return fresh;
    }

    /**
     * Records an approval's target before the approval is sent; false (with one log line) when ZooKeeper did not
     * take it, and then the approval must not be sent.
     */
    boolean record(Decisions.Approval a) {
        if (membership == null) {
            return true;
        }
        try {
            membership.recordMigration(a.key(), a.target());
            return true;
        } catch (RuntimeException e) {
            LOG.warn("not approving key {}: {}", a.key(), e.getMessage());
            return false;
        }
    }

    /** Recorded targets the last coordinator this machine became was seeded with, or -1 before it coordinated. */
    long seededTargets() {
        return seededTargets;
    }
}
