package io.pragh.store;

import io.pragh.runtime.DutyThread;

/**
 * The duty that keeps a machine's read replicas ({@link Replicas#upkeep}): four rounds per replica lease, so a replica
 * still read is renewed at half its lease, well before it runs out.
 */
final class ReplicaKeeper extends DutyThread {
    private final Replicas replicas;

    ReplicaKeeper(MachineStore store) {
        super("m" + store.id() + "-replicas", Math.max(1, store.replication().settings().leaseMillis() / 4) * 1_000_000L);
        this.replicas = store.replication().replicas();
    }

    @Override
    protected int doWork() {
        replicas.upkeep();
        return 0;
    }
}
