package io.pragh.server.rpc;

import io.pragh.fabric.FabricStats;
import io.pragh.store.Replicas;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * What STATS reports of one machine: its store's access counts (local and remote operations, from which a benchmark
 * computes the remote access rate), forwarded updates, and the migrations of its policy so far. Every count is
 * cumulative since the machine started; a benchmark subtracts two readings for an interval.
 *
 * <pre>{@code
 * MachineStats before = client.stats();
 * ...
 * double remote = client.stats().fabric().minus(before.fabric()).remoteAccessRate();
 * }</pre>
 *
 * @param machine             the machine's id
 * @param fabric              local and remote operation counts of the machine's store
 * @param forwardedUpdates    updates this machine forwarded to the key's home (check-and-forward)
 * @param migrationsRequested MIGRATEs handed to this machine's migration thread (coordinator decisions and client
 *                            MIGRATE requests alike)
 * @param migrationsDone      those that completed, with any outcome, or failed
 * @param valuesMigrated      those whose outcome was MIGRATED
 * @param migrationBytes      bytes this machine's migrator moved
 * @param approvals           migrations this machine approved while it coordinated
 * @param coordinator         whether this machine coordinates now
 * @param replicas            the read replicas this machine holds (docs/replicas.md), all zero when they are off
 */
public record MachineStats(int machine, FabricStats.Snapshot fabric, long forwardedUpdates, long migrationsRequested,
                           long migrationsDone, long valuesMigrated, long migrationBytes, long approvals,
                           boolean coordinator, Replicas.Counts replicas) {
    /** Encoded length: machine (4), the 9 fabric counts, 6 more counts, the replica counts (8 each), coordinator (1). */
    public static final int BYTES = 4 + 9 * Long.BYTES + 6 * Long.BYTES + Replicas.Counts.COUNT * Long.BYTES + 1;

    /** Writes the layout of {@link ClientProtocol}'s STATS answer at {@code off}. */
    void encode(MutableDirectBuffer b, int off) {
        b.putInt(off, machine);
        long[] f = {fabric.localOps(), fabric.localBytes(), fabric.remoteReads(), fabric.remoteReadBytes(),
            fabric.remoteWrites(), fabric.remoteWriteBytes(), fabric.remoteAtomics(), fabric.messages(),
            fabric.messageBytes(), forwardedUpdates, migrationsRequested, migrationsDone, valuesMigrated,
            migrationBytes, approvals};
        for (int i = 0; i < f.length; i++) {
            b.putLong(off + 4 + Long.BYTES * i, f[i]);
        }
        long[] r = replicas.toArray();
        for (int i = 0; i < r.length; i++) {
            b.putLong(off + 4 + Long.BYTES * (f.length + i), r[i]);
        }
        b.putByte(off + BYTES - 1, (byte) (coordinator ? 1 : 0));
    }

    /** Reads what {@link #encode} wrote; the caller checked that {@link #BYTES} are there. */
    static MachineStats decode(DirectBuffer b, int off) {
        long[] f = new long[15 + Replicas.Counts.COUNT];
        for (int i = 0; i < f.length; i++) {
            f[i] = b.getLong(off + 4 + Long.BYTES * i);
        }
        FabricStats.Snapshot fabric = new FabricStats.Snapshot(f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]);
        return new MachineStats(b.getInt(off), fabric, f[9], f[10], f[11], f[12], f[13], f[14],
            b.getByte(off + BYTES - 1) != 0, Replicas.Counts.of(f, 15));
    }
}
