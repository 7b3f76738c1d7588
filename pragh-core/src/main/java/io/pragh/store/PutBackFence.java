package io.pragh.store;

import io.pragh.address.Address;
import io.pragh.memory.ChunkedRegion;
import io.pragh.reclaim.Leases;
import io.pragh.runtime.DutyThread;
import io.pragh.values.ValueRecord;
import java.util.concurrent.TimeUnit;

/**
 * Keeps values this machine put back from its log at home, unchanged, while another machine may still read an older
 * record of them, and lets them go once none can (docs/replicas.md, "Limits", closed in session 21).
 *
 * <p>Two kinds of put-back. A machine that restarted reloads its keys at home ({@code Recovery}); survivors that
 * have not yet recovered from its restart ({@code io.pragh.durability.PeerLoss}) may still hold a cached address of,
 * or a replica of, the record a survivor hosted for one of those keys before the crash, and read it. A home that puts
 * back a value lost with the machine it had migrated to ({@link MachineStore#restore}) faces replicas that machine
 * granted. Updates at the home are not enough to keep such readers right: another machine could migrate the value
 * away with one-sided operations and update it there. So every put-back record carries {@link ValueRecord#PUT_BACK}
 * while the fence holds: migrations leave it alone ({@code Migrator}, outcome {@code HELD}), and the home's updates
 * of it wait in {@link DeferredUpdates} (refused retryably after its patience). When the fence lifts, this
 * machine's lifter thread clears the bits.
 *
 * <p>How long it holds. A restart's hold ends when every peer told of the restart has recovered from it
 * ({@link #everyPeerRecovered}: a server's {@code CrashRecovery} calls it; no survivor then points into the old
 * life), or at the latest {@link Replication#orphanWaitMillis} after the reload began: no cached address or replica
 * of a record from before the crash is used that long after it was read from its home's word, which was before the
 * reload. A restore's hold lasts {@link ReplicaRegistry#waitMillis} (the lost machine's grants run out; its memory
 * is gone, so nothing else of it can be read), and only with replicas on. A machine that starts together with its
 * cluster ({@link #firstLife}) has no earlier life: reloading its log holds nothing back.
 *
 * <p>Ordering. A hold is raised under this object's lock before any record gets the bit, and the lifter clears a bit
 * only under the lock after seeing no hold: a record put back under a newer hold keeps its bit. Updates read
 * {@link #holdsBack} on the header they found, and each hold's deadline is volatile.
 *
 * <pre>{@code
 * store.putBacks().restarted();            // before the log is reloaded (Recovery does this)
 * store.putBacks().everyPeerRecovered();   // once every survivor acknowledged the restart
 * }</pre>
 */
public final class PutBackFence {
    /** How often the lifter looks whether a hold has run out. */
    private static final long LIFTER_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final MachineStore machine;
    /** Set before attach by {@link #firstLife}: this machine's reload is its cluster's first start. */
    private volatile boolean firstLife;
    /** When the restart's reload began ({@link Leases#nowMillis}); 0 when no restart hold is up. */
    private volatile long restartedAtMillis;
    /** Until when restored values are held; 0 when none. */
    private volatile long restoredUntilMillis;
    /** Whether some record may carry the bit: raised with a hold, cleared by a complete lifting pass. */
    private volatile boolean marked;
    /** Holds raised so far: a pass that saw another raised meanwhile may have passed its records before they had it. */
    private long holdsRaised;
    private volatile long lifted;
    private DutyThread lifter;

    PutBackFence(MachineStore machine) {
        this.machine = machine;
    }

    /**
     * Declares that this machine starts with its cluster: no other machine can hold an address or replica of a
     * previous life of it, so reloading its log holds nothing back. Before attach.
     */
    void firstLife() {
        firstLife = true;
    }

    /**
     * This machine restarted and is about to reload its keys from its log: those records are held at home until
     * {@link #everyPeerRecovered} or {@link Replication#orphanWaitMillis} from now. A no-op on a first life.
     */
    public synchronized void restarted() {
        if (firstLife) {
            return;
        }
        marked = true;
        holdsRaised++;
        restartedAtMillis = Leases.nowMillis();
        startLifter();
    }

    /** Every peer told of this machine's restart has recovered from it: the restart's hold ends now. */
    public synchronized void everyPeerRecovered() {
        restartedAtMillis = 0;
        if (lifter != null) {
            lifter.wake();
        }
    }

    /**
     * This machine is about to put back values lost with the machine they had migrated to ({@code PeerLoss}): with
     * replicas on, they are held for {@link ReplicaRegistry#waitMillis} from now.
     */
    public synchronized void restoring() {
        if (!machine.replication().settings().enabled()) {
            return;
        }
        marked = true;
        holdsRaised++;
        restoredUntilMillis = Math.max(restoredUntilMillis,
            Leases.nowMillis() + machine.replication().registry().waitMillis());
        startLifter();
    }

    /** Whether a hold is up now. */
    public boolean holds() {
        long now = Leases.nowMillis();
        long restartedAt = restartedAtMillis;
        return restartedAt != 0 && now < restartedAt + machine.replication().orphanWaitMillis()
            || now < restoredUntilMillis;
    }

    /** Whether an update must wait before replacing the record {@code header} heads (a put-back one, still held). */
    boolean holdsBack(long header) {
        return (header & ValueRecord.PUT_BACK) != 0 && holds();
    }

    /** The flags a record put back now gets: {@link ValueRecord#PUT_BACK} while a hold is up, else none. */
    long flagsNow() {
        return holds() ? ValueRecord.PUT_BACK : 0;
    }

    /** Records whose bit the lifter cleared, over this machine's life. */
    public long lifted() {
        return lifted;
    }

    /** Starts the lifter once the machine is attached and something is held (the reload runs before attach). */
    synchronized void startLifter() {
        if (lifter != null || !marked || machine.endpoint() == null) {
            return;
        }
        lifter = new DutyThread("m" + machine.id() + "-put-backs", LIFTER_PARK_NANOS) {
            @Override
            protected int doWork() {
                return liftIfDue();
            }
        };
        lifter.start();
    }

    /** Stops the lifter (the store quiesces): its CASes touch this machine's memory. */
    boolean stop(long patienceMillis) {
        DutyThread running;
        synchronized (this) {
            running = lifter;
        }
        // Not under the lock: a pass under way takes it for each bit it clears.
        return running == null || running.stop(patienceMillis);
    }

    private int liftIfDue() {
        long raised;
        synchronized (this) {
            if (!marked || holds()) {
                return 0;
            }
            raised = holdsRaised;
        }
        int cleared;
        int self = machine.id();
        ChunkedRegion region = machine.values().region();
        boolean[] complete = {true};
        int[] count = {0};
        machine.keys().forEach((key, address, slot) -> {
            if (!complete[0] || Address.isNone(address) || Address.isTombstone(address)
                || Address.host(address, self) != self) {
                return;
            }
            long offset = Address.byteOffset(address);
            // Acquire: the bits read are the record's as of its last CAS.
            long header = region.getLongVolatile(offset);
            while (ValueRecord.isLiveAt(header, address) && (header & ValueRecord.PUT_BACK) != 0) {
                if ((header & (ValueRecord.INVALIDATION_PENDING | ValueRecord.LOCKED)) != 0) {
                    // An update that found the hold lifted holds it: it will publish a record without the bit (or
                    // give up and restore this header, which the next pass clears).
                    complete[0] = false;
                    return;
                }
                synchronized (this) {
                    if (holds()) {
                        complete[0] = false; // a newer hold: its records keep their bits, the next pass goes on
                        return;
                    }
                    long witness = machine.regions().casHeader(self, offset, header, header & ~ValueRecord.PUT_BACK);
                    if (witness == header) {
                        count[0]++;
                        break;
                    }
                    header = witness;
                }
            }
        });
        cleared = count[0];
        lifted += cleared;
        synchronized (this) {
            if (complete[0] && holdsRaised == raised) {
                marked = false;
            }
        }
        return cleared;
    }
}
