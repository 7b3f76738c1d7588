package io.pragh.store;

import io.pragh.PraghException;
import io.pragh.address.Address;
import io.pragh.cache.LocationCache;
import io.pragh.fabric.Region;
import io.pragh.reclaim.Leases;
import io.pragh.values.ValueRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;
import org.agrona.BufferUtil;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The holder's side of read replicas (docs/replicas.md): lease-bounded read-only copies, in this machine's value
 * region, of values hosted elsewhere and read here a lot. A granted replica is found through the location cache as a
 * migrated value is (its address names this machine), so a GET of it is local and goes through the unchanged GET
 * path and header check: a replica its host invalidated fails the check and the GET reads the key's word afresh.
 *
 * <p>Placing one: read the key's word at its home, READ the record, write a local copy, send REPLICATE to the host;
 * only a grant puts the copy in the location cache, stamped so that the cache lease ends with the replica lease
 * counted from the request. {@link #upkeep} (the keeper thread) renews replicas still read, and drops those not read,
 * unanswered, over budget or whose value turned write-hot: a replica is kept only while the reads it saves outweigh
 * its upkeep, {@link #UPKEEP_WEIGHT} reads per write of its value (each write costs an invalidation, a new copy and a
 * request). Memory is bounded by {@link ReplicaSettings#bytesPerMachine}.
 *
 * <pre>{@code
 * boolean placed = store.replication().replicas().place(key, readsPerSecond);  // the grant arrives as a message
 * store.replication().replicas().upkeep();                                     // on the keeper thread, every lease / 4
 * }</pre>
 */
public final class Replicas {
    /** Reads a replica must save per write of its value to be kept. */
    public static final double UPKEEP_WEIGHT = 4;
    /** A replica not read for this many leases is dropped (renewals cost a message each way per half lease). */
    static final int IDLE_LEASES = 4;
    /** Writes of a value are remembered this many leases long (the write rate the upkeep rule sees). */
    private static final int WRITE_MEMORY_LEASES = 20;

    private static final class Replica {
        long key;
        long source;
        long address;
        long slot;
        long versionWord;
        int length;
        long bytes;
        long requestStamp;
        /**
         * When {@link #source} was last obtained from the key's home word (or a cache entry's stamp of it): the
         * replica is never used past {@link Replication#ANCHOR_CACHE_LEASES} cache leases from it ({@link #request},
         * {@link #upkeep}).
         */
        long anchorMillis;
        long grantedStamp = -1;
        long lastCount = -2;
        /** When the keeper last saw it read (or it was placed). */
        long readMillis;
        double readRate;
    }

    private final MachineStore machine;
    private final Long2ObjectHashMap<Replica> held = new Long2ObjectHashMap<>();
    /** Per key: writes (invalidations of its replica) seen in the last {@link #WRITE_MEMORY_LEASES} leases, and when. */
    private final Long2LongHashMap writes = new Long2LongHashMap(0);
    private final Long2LongHashMap writesSince = new Long2LongHashMap(0);
    private long bytes;
    private UnsafeBuffer copy = new UnsafeBuffer(BufferUtil.allocateDirectAligned(4096, 64));
    /** A cache entry peeked at by {@link #request} (under this object's lock). */
    private final LocationCache.Hit hit = new LocationCache.Hit();
    private final LongAdder placed = new LongAdder();
    private final LongAdder renewed = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder invalidated = new LongAdder();
    private final LongAdder expired = new LongAdder();
    private final LongAdder writeHot = new LongAdder();
    private final LongAdder overBudget = new LongAdder();
    private final LongAdder reanchored = new LongAdder();

    Replicas(MachineStore machine) {
        this.machine = machine;
    }

    /**
     * Places (or keeps) a replica here of {@code key}'s value, read about {@code readsPerSecond} here, unless the
     * value is here already (a home whose value migrated away may hold one: its GETs use it, see
     * {@code Session#useOwnReplica}), the budget is spent, or the upkeep rule says its writes outweigh the reads.
     *
     * @return whether a replica is held or requested now
     */
    public synchronized boolean place(long key, double readsPerSecond) {
        ReplicaSettings settings = machine.replication().settings();
        int home = machine.placement().home(key);
        if (!settings.enabled()) {
            return false;
        }
        long now = Leases.nowMillis();
        Replica r = held.get(key);
        if (r != null) {
            if (ValueRecord.isLiveAt(machine.values().region().getLongVolatile(Address.byteOffset(r.address)),
                r.address)) {
                r.readRate = readsPerSecond;
                return true;
            }
            forget(r);
        }
        if (!worth(key, readsPerSecond, now)) {
            writeHot.increment();
            return false;
        }
        Session s = machine.session();
        if (!enterGate(s)) {
            return false;
        }
        try {
            return request(s, key, home, readsPerSecond, settings);
        } catch (PraghException e) {
            return false; // the host or home did not answer: nothing was placed
        } finally {
            machine.gate().exit(s.gateStripe);
        }
    }

    private boolean request(Session s, long key, int home, double readsPerSecond, ReplicaSettings settings) {
        // The holder reads the value (that is why it is offered a replica), so its cache usually names the record:
        // the bucket read would cost a remote operation for nothing. A cached address may be stale, as a fresh one
        // may be as soon as it is read: the copy's check and the host's grant (a CAS of the live record's header,
        // refused once it is superseded) decide, not the address's age. A stale one costs a fresh lookup. Peeked:
        // no count, no busy mark.
        boolean cached = home != machine.id() && machine.cache().peek(key, Leases.nowMillis(), hit)
            && Address.host(hit.address, home) != machine.id();
        long source = hit.address;
        long slot = hit.slotOffset;
        long anchor = hit.stampMillis;
        while (true) {
            if (!cached) {
                if (!s.lookup(key, false)) {
                    return false;
                }
                source = s.address;
                slot = s.slot;
                anchor = s.obtainedAtMillis;
            }
            if (Address.host(source, home) == machine.id()) {
                return false;
            }
            int size = (int) Address.byteSize(source);
            if (copy.capacity() < size) {
                copy = new UnsafeBuffer(BufferUtil.allocateDirectAligned(Integer.highestOneBit(size) << 1, 64));
            }
            machine.endpoint().readRecord(Address.host(source, home), Region.VALUES, Address.byteOffset(source), copy,
                0, size, ValueRecord.EXTENT);
            if (cached && !ValueRecord.isValid(copy, 0, source, key)) {
                cached = false; // superseded since it was cached: read the home's word
                continue;
            }
            break;
        }
        int host = Address.host(source, home);
        long header = copy.getLong(0);
        if (!ValueRecord.isValid(copy, 0, source, key)
            || (header & (ValueRecord.INVALIDATION_PENDING | ValueRecord.LOCKED | ValueRecord.DELETING)) != 0) {
            return false; // being updated: the host would refuse it anyway
        }
        int length = ValueRecord.payloadLengthOf(header);
        long units = ValueRecord.unitsFor(length);
        if (bytes + (units << 3) > settings.bytesPerMachine()) {
            overBudget.increment();
            return false;
        }
        long local = machine.values().allocate(units);
        // A plain copy: nobody can find it before a grant puts it in the cache (the cache's seqlock release orders it).
        machine.regions().writeRecord(key, ValueRecord.version(copy, 0, header), local, length, 0,
            machine.mutators().get(Mutators.SET), copy, 0, 0, copy, ValueRecord.HEADER_BYTES, length);
        Replica r = new Replica();
        r.key = key;
        r.source = source;
        r.address = Address.at(machine.id(), home, local);
        r.slot = slot;
        r.anchorMillis = anchor;
        r.versionWord = copy.getLong(ValueRecord.VERSION_OFFSET);
        r.length = length;
        r.bytes = units << 3;
        r.readRate = readsPerSecond;
        r.readMillis = Leases.nowMillis();
        held.put(key, r);
        bytes += r.bytes;
        placed.increment();
        if (!send(r, host)) {
            drop(r);
            return false;
        }
        return true;
    }

    /** Sends (again) the request of {@code r}; the lease of its grant counts from now. */
    private boolean send(Replica r, int host) {
        r.requestStamp = Leases.nowMillis();
        try {
            machine.send(host, ReplicaMessages.replicate(r.key, r.source, r.address, r.versionWord, r.requestStamp,
                r.length), 0, ReplicaMessages.REPLICATE_BYTES);
            return true;
        } catch (PraghException unreachable) {
            return false;
        }
    }

    /** A REPLICA_ANSWER: a grant puts the replica in the cache for the lease of the request it answers. */
    synchronized void onAnswer(long key, long replica, long stamp, boolean granted) {
        Replica r = held.get(key);
        if (r == null || r.address != replica) {
            return; // dropped meanwhile (invalidated here, so never found again)
        }
        if (!granted) {
            refused.increment();
            drop(r);
            return;
        }
        if (stamp <= r.grantedStamp) {
            return;
        }
        r.grantedStamp = stamp;
        long cacheLease = machine.config().leases().cacheMillis();
        // Stamped back so that the cache lease ends when the replica lease of this request does, and never later than
        // ANCHOR_CACHE_LEASES cache leases after the source's address was last read from the home: a grant says the
        // record is live and unlocked at its host, not that the home still names it. A record can be left live when
        // the home no longer names it (a migration whose source did not answer settles by the leases; a restarted
        // home reloads the key at home), and its host would grant renewals of copies of it for good. The first waits
        // Replication#orphanWaitMillis; for the second, survivors drop their replicas when they recover (dropOf).
        machine.cache().insert(key, replica, r.slot,
            Math.min(stamp - (cacheLease - machine.replication().settings().leaseMillis()),
                r.anchorMillis + (Replication.ANCHOR_CACHE_LEASES - 1) * cacheLease));
    }

    /**
     * One round of upkeep: forgets replicas their host invalidated (placing a new copy where it still pays), renews
     * those read since the last renewal, and drops the rest once their lease ran out.
     *
     * @return replicas held after the round
     */
    public synchronized int upkeep() {
        ReplicaSettings settings = machine.replication().settings();
        long now = Leases.nowMillis();
        long lease = settings.leaseMillis();
        List<Replica> all = new ArrayList<>(held.values());
        for (Replica r : all) {
            long header = machine.values().region().getLongVolatile(Address.byteOffset(r.address));
            if (!ValueRecord.isLiveAt(header, r.address)) {
                invalidated.increment();
                forget(r);
                noteWrite(r.key, now, lease);
                place(r.key, r.readRate);
            } else if (r.grantedStamp < 0) {
                if (now - r.requestStamp > 10 * lease) {
                    drop(r); // request or answer lost
                }
            } else if (now - r.requestStamp >= lease / 2) {
                long count = machine.cache().accesses(r.key, r.address);
                boolean read = count >= 0 && count != r.lastCount;
                if (read) {
                    r.readMillis = now;
                }
                // Kept while read within the last IDLE_LEASES leases, not only since the last renewal: a value read
                // a few times a second has gaps longer than half a lease, and dropping its replica then cost a
                // re-placement (two remote reads) and remote reads until the policy offered it again.
                boolean idle = now - r.readMillis >= IDLE_LEASES * lease;
                boolean hot = !idle && !worth(r.key, r.readRate, now);
                if (!idle && !hot && anchored(r, now, lease)) {
                    renewals.add(r, Address.host(r.source, machine.placement().home(r.key)), count, lease);
                } else if (now - r.grantedStamp >= lease) {
                    if (hot) {
                        writeHot.increment();
                    } else {
                        expired.increment();
                    }
                    drop(r);
                }
            }
        }
        renewals.sendAll(lease);
        return held.size();
    }

    /**
     * An upkeep round's renewals, by host: each host's go in one REPLICATE message of many records (see {@link
     * ReplicaMessages}), sent at the round's end or when one is full. The keeper's only (under this object's lock).
     */
    private final class Renewals {
        /** Records a message takes: the fabric's largest message's worth (known once the machine is connected). */
        private int perMessage;
        /** Per host: its message so far, the replicas it renews and the access counts they were read at. */
        private final List<List<Replica>> replicas = new ArrayList<>();
        private final List<LongArrayList> counts = new ArrayList<>();
        private final List<UnsafeBuffer> messages = new ArrayList<>();

        void add(Replica r, int host, long count, long lease) {
            if (perMessage == 0) {
                perMessage = Math.max(1, Math.min(ReplicaMessages.MAX_RECORDS,
                    machine.endpoint().maxMessageBytes() / ReplicaMessages.REPLICATE_BYTES));
            }
            while (replicas.size() <= host) {
                replicas.add(new ArrayList<>());
                counts.add(new LongArrayList());
                messages.add(new UnsafeBuffer(new byte[perMessage * ReplicaMessages.REPLICATE_BYTES]));
            }
            List<Replica> batch = replicas.get(host);
            // The grant's lease counts from this stamp: taken before the send, never after it.
            r.requestStamp = Leases.nowMillis();
            ReplicaMessages.putReplicate(messages.get(host), batch.size() * ReplicaMessages.REPLICATE_BYTES, r.key,
                r.source, r.address, r.versionWord, r.requestStamp, r.length);
            batch.add(r);
            counts.get(host).addLong(count);
            if (batch.size() == perMessage) {
                send(host, lease);
            }
        }

        /** Sends every host's renewals gathered so far. */
        void sendAll(long lease) {
            for (int host = 0; host < replicas.size(); host++) {
                if (!replicas.get(host).isEmpty()) {
                    send(host, lease);
                }
            }
        }

        /**
         * Sends one host's message. Renewed: each replica's count is the one it was read at. A host that does not take
         * it renews nothing: a replica whose grant's lease ran out is dropped, as an unsent renewal's always was.
         */
        private void send(int host, long lease) {
            List<Replica> batch = replicas.get(host);
            LongArrayList read = counts.get(host);
            boolean sent;
            try {
                machine.send(host, messages.get(host), 0, batch.size() * ReplicaMessages.REPLICATE_BYTES);
                sent = true;
            } catch (PraghException unreachable) {
                sent = false;
            }
            long now = Leases.nowMillis();
            for (int i = 0; i < batch.size(); i++) {
                Replica r = batch.get(i);
                if (sent) {
                    if (read.getLong(i) >= 0) {
                        r.lastCount = read.getLong(i);
                    }
                    renewed.increment();
                } else if (now - r.grantedStamp >= lease) {
                    expired.increment();
                    drop(r);
                }
            }
            batch.clear();
            read.clear();
        }
    }

    private final Renewals renewals = new Renewals();

    /**
     * Drops every replica held here of a value homed on, or hosted by, machine {@code lost}, whose memory is gone
     * (it crashed, or restarted with new regions): called by a survivor's recovery ({@code io.pragh.durability.PeerLoss})
     * before it tells the restarted machine that it recovered. A restarted home reloads its keys at home and leaves
     * the records that hosted them elsewhere live until they are found as orphans; their host would go on granting
     * renewals of copies of them (the record is live, unlocked, of the copied version), so a replica kept here would
     * be read, and renewed, for good while the home's new records take updates. A late answer to a renewal sent
     * before finds no replica and is ignored.
     *
     * @return replicas dropped
     */
    public synchronized int dropOf(int lost) {
        int n = 0;
        for (Replica r : new ArrayList<>(held.values())) {
            int home = machine.placement().home(r.key);
            if (home == lost || Address.host(r.source, home) == lost) {
                drop(r);
                n++;
            }
        }
        return n;
    }

    /**
     * Whether {@code r}'s source address is still within its lease (from the home's word) for the lease a renewal
     * sent now would give ({@link Replication#ANCHOR_CACHE_LEASES} cache leases from when it was read): else the home's
     * word is read again (a remote READ per replica kept per that many cache leases, not per renewal), and if it still
     * names the source the lease counts from that read. A word naming something else
     * (the value moved or was replaced, its record perhaps left live without the home naming it), or a home that
     * does not answer, ends the renewals: the replica lapses with its lease.
     */
    private boolean anchored(Replica r, long now, long lease) {
        if (now + lease - r.anchorMillis < Replication.ANCHOR_CACHE_LEASES * machine.config().leases().cacheMillis()) {
            return true;
        }
        Session s = machine.session();
        if (!enterGate(s)) {
            return false;
        }
        try {
            reanchored.increment();
            if (s.lookup(r.key, false) && s.address == r.source) {
                r.anchorMillis = s.obtainedAtMillis;
                return true;
            }
            return false;
        } catch (PraghException homeUnreachable) {
            return false;
        } finally {
            machine.gate().exit(s.gateStripe);
        }
    }

    /** Enters the machine's gate for {@code s}; false once the machine closes (the keeper's last round must not die). */
    private boolean enterGate(Session s) {
        try {
            machine.gate().enter(s.gateStripe);
            return true;
        } catch (PraghException closed) {
            return false;
        }
    }

    /** Drops every replica held here (replicas turned off, or the machine leaves). */
    public synchronized void dropAll() {
        for (Replica r : new ArrayList<>(held.values())) {
            drop(r);
        }
    }

    private boolean worth(long key, double readsPerSecond, long now) {
        long lease = Math.max(1, machine.replication().settings().leaseMillis());
        long since = writesSince.get(key);
        if (since == 0 || now - since > WRITE_MEMORY_LEASES * lease) {
            return true;
        }
        double writesPerSecond = writes.get(key) * 1000.0 / Math.max(lease, now - since);
        return readsPerSecond > UPKEEP_WEIGHT * writesPerSecond;
    }

    private void noteWrite(long key, long now, long lease) {
        long since = writesSince.get(key);
        if (since == 0 || now - since > WRITE_MEMORY_LEASES * lease) {
            writesSince.put(key, now);
            writes.put(key, 1);
        } else {
            writes.put(key, writes.get(key) + 1);
        }
    }

    /** Forgets a replica found invalid (its invalidator handed it to the GC). */
    private void forget(Replica r) {
        held.remove(r.key);
        bytes -= r.bytes;
        machine.cache().invalidate(r.key, r.address);
    }

    /** Drops a replica still valid: invalidated here (its winner hands it to the GC), then forgotten. */
    private void drop(Replica r) {
        forget(r);
        if (machine.regions().invalidate(machine.id(), r.address)) {
            machine.reclaimRings().post(machine.id(), r.address);
        }
    }

    /**
     * The holder's counts at one moment, summable over machines: what a benchmark or the client RPC's STATS reports.
     *
     * <pre>{@code
     * Replicas.Counts all = a.replication().replicas().counts().plus(b.replication().replicas().counts());
     * System.out.println(all.describe());
     * }</pre>
     */
    public record Counts(long held, long bytes, long placed, long renewed, long refused, long invalidated,
                         long expired, long writeHot, long overBudget, long reanchored) {
        public static final Counts ZERO = new Counts(0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        /** How many counts {@link #toArray} gives. */
        public static final int COUNT = 10;

        public Counts plus(Counts o) {
            return new Counts(held + o.held, bytes + o.bytes, placed + o.placed, renewed + o.renewed,
                refused + o.refused, invalidated + o.invalidated, expired + o.expired, writeHot + o.writeHot,
                overBudget + o.overBudget, reanchored + o.reanchored);
        }

        /** The counts in order, as {@link #of} reads them back. */
        public long[] toArray() {
            return new long[] {held, bytes, placed, renewed, refused, invalidated, expired, writeHot, overBudget,
                reanchored};
        }

        /** The counts {@link #toArray} gave ({@code v} has at least {@link #COUNT} from {@code at}). */
        public static Counts of(long[] v, int at) {
            return new Counts(v[at], v[at + 1], v[at + 2], v[at + 3], v[at + 4], v[at + 5], v[at + 6], v[at + 7],
                v[at + 8], v[at + 9]);
        }

        /** One line for a benchmark's output. */
        public String describe() {
            return String.format(java.util.Locale.ROOT, "read replicas held %d (%d bytes); placed %d, renewed %d,"
                + " refused %d, invalidated by writes %d, expired (unread or lapsed) %d, write-hot %d, over budget %d;"
                + " source addresses read again from their homes %d", held, bytes, placed, renewed, refused, invalidated,
                expired, writeHot, overBudget, reanchored);
        }
    }

    /** This holder's counts now. */
    public Counts counts() {
        return new Counts(count(), bytes(), placed(), renewed(), refused(), invalidated(), expired(), writeHot(),
            overBudget(), reanchored.sum());
    }

    /** Hands {@code visitor} the key of every replica held here now (its control keeps those values in place). */
    public synchronized void forEachHeld(LongConsumer visitor) {
        for (Replica r : held.values()) {
            visitor.accept(r.key);
        }
    }

    /** Replicas held here now. */
    public synchronized int count() {
        return held.size();
    }

    /** Value-region bytes the replicas held here take (at most {@link ReplicaSettings#bytesPerMachine}). */
    public synchronized long bytes() {
        return bytes;
    }

    public long placed() {
        return placed.sum();
    }

    public long renewed() {
        return renewed.sum();
    }

    public long refused() {
        return refused.sum();
    }

    /** Replicas found invalidated by a write of their value at its host. */
    public long invalidated() {
        return invalidated.sum();
    }

    /**
     * Replicas dropped unrenewed: not read within {@link #IDLE_LEASES} leases, or lapsed (their home's word no longer
     * names their source, or the home or host did not answer).
     */
    public long expired() {
        return expired.sum();
    }

    /** Replicas not placed or not kept because their value's writes outweighed the reads they saved. */
    public long writeHot() {
        return writeHot.sum();
    }

    /** Replicas not placed because the budget was spent. */
    public long overBudget() {
        return overBudget.sum();
    }
}
