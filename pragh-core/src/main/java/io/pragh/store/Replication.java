package io.pragh.store;

import io.pragh.reclaim.Leases;

/**
 * Read replicas of contended values on one machine (docs/replicas.md): their settings, the host's side (the
 * {@link ReplicaRegistry} of replicas granted of values hosted here), the holder's side (the {@link Replicas} held
 * here of values hosted elsewhere) and the keeper thread that renews and drops those. Off unless
 * {@link #configure} turned it on before the machine attached to its fabric.
 *
 * <pre>{@code
 * store.replication().configure(new ReplicaSettings(64L << 20, 200));   // before store.attach(fabric)
 * store.replication().replicas().place(key, readsPerSecond);
 * }</pre>
 */
public final class Replication {
    private final MachineStore machine;
    private final ReplicaRegistry registry;
    private final Replicas replicas;
    private volatile ReplicaSettings settings = ReplicaSettings.OFF;
    private ReplicaKeeper keeper;

    Replication(MachineStore machine) {
        this.machine = machine;
        this.registry = new ReplicaRegistry(machine);
        this.replicas = new Replicas(machine);
    }

    /**
     * Turns replicas on (or off) for this machine, before it attaches; every machine of a cluster alike. A lease
     * longer than the cache lease is refused (the holder's cache entry carries the lease).
     */
    public void configure(ReplicaSettings s) {
        if (machine.endpoint() != null) {
            throw new IllegalStateException("machine " + machine.id() + ": replica settings are set before attach");
        }
        if (s.enabled() && s.leaseMillis() > machine.config().leases().cacheMillis()) {
            throw new IllegalArgumentException("replica lease " + s.leaseMillis() + " ms exceeds the cache lease of "
                + machine.config().leases().cacheMillis() + " ms");
        }
        this.settings = s;
    }

    /**
     * Declares that this machine starts with its cluster, not into one that ran before: no other machine can hold a
     * replica of a previous life of it, so its first updates skip the wait that a restarted host owes those
     * (docs/replicas.md, "Host crash or restart"). Before attach, like {@link #configure}.
     */
    public void startsWithItsCluster() {
        if (machine.endpoint() != null) {
            throw new IllegalStateException("machine " + machine.id() + ": a first start is declared before attach");
        }
        registry.firstLife();
    }

    public ReplicaSettings settings() {
        return settings;
    }

    /**
     * Cache leases a replica's source address holds once its holder read it from the key's home word: a replica is
     * never used past that ({@link Replicas}), and a record its home stopped naming while it was left live waits
     * that long before its successor settles ({@link #orphanWaitMillis}). Several cache leases, not one: the holder
     * reads the word again once per that many (a remote READ per replica kept), while the wait falls only on a
     * migration whose source did not answer.
     */
    public static final int ANCHOR_CACHE_LEASES = 4;

    /**
     * How long after a key's home stopped naming a record that is left live (a migration whose source did not answer
     * its invalidation, {@code io.pragh.migration.UnfinishedMigrations}) a reader may still act on an address of it:
     * the cache and reclaim leases, and with replicas on {@link #ANCHOR_CACHE_LEASES} cache leases and the reclaim
     * lease, since the record's host goes on granting renewals of copies of it.
     */
    public long orphanWaitMillis() {
        Leases leases = machine.config().leases();
        return settings.enabled() ? ANCHOR_CACHE_LEASES * leases.cacheMillis() + leases.reclaimMillis()
            : leases.addressMillis();
    }

    /** The replicas granted of values hosted here. */
    public ReplicaRegistry registry() {
        return registry;
    }

    /** The replicas held here of values hosted elsewhere. */
    public Replicas replicas() {
        return replicas;
    }

    synchronized void start() {
        if (settings.enabled() && keeper == null) {
            keeper = new ReplicaKeeper(machine);
            keeper.start();
        }
    }

    synchronized void stop() {
        if (keeper != null) {
            keeper.close();
            keeper = null;
        }
    }
}
