package io.pragh.store;

import io.pragh.reclaim.Leases;
import io.pragh.runtime.DutyThread;

/**
 * The duty that keeps a machine's read replicas ({@link Replicas#upkeep}): four rounds per replica lease, so a replica
 * still read is renewed at half its lease, well before it runs out; and, as a host, forgets the keys whose replicas
 * all ran out ({@link ReplicaRegistry#forgetRunOut}), so that moving their values does not wait for them.
 */
final class ReplicaKeeper extends DutyThread {
    private final Replicas replicas;
    private final ReplicaRegistry registry;

    ReplicaKeeper(MachineStore store) {
        super("m" + store.id() + "-replicas", Math.max(1, store.replication().settings().leaseMillis() / 4) * 1_000_000L);
        this.replicas = store.replication().replicas();
        this.registry = store.replication().registry();
    }

    @Override
    protected int doWork() {
        replicas.upkeep();
        registry.forgetRunOut(Leases.nowMillis());
        return 0;
    }
}
