package io.pragh.coordinator;

import io.pragh.keys.Placement;
import io.pragh.monitor.KeyRate;
import io.pragh.monitor.MonitorReport;
import java.util.ArrayList;
import java.util.List;
import org.agrona.collections.Long2LongHashMap;

/**
 * Which read replicas to place after an interval (docs/replicas.md): a value read from several machines is local to
 * at most one of them after migration (the single-copy floor), so each other machine that read it in the interval is
 * offered a replica, hottest first, up to a number per machine. So is a lone reporter of a value that migrated to
 * another machine (neither its home nor the reporter) and is not moving to the reporter now: its host reads it too
 * (locally, so unreported), and the coordinator's margin left it there. The key's home is offered one too when it read the
 * value elsewhere (it migrated away: the home reports it as a tracked key, and its GETs use a replica held there);
 * the machine holding the value refuses its offer. The target of a migration of the key approved in the same
 * interval is never offered one. Whether
 * a replica is then placed and kept (its memory budget, and its reads weighed against the writes of its value) is the
 * holder's decision ({@code io.pragh.store.Replicas}).
 *
 * <pre>{@code
 * for (ReplicaPolicy.Choice c : ReplicaPolicy.choose(reports, placement, machines, decisions, 4096)) {
 *     cluster.machine(c.machine()).store().replication().replicas().place(c.key(), c.readsPerSecond());
 * }
 * }</pre>
 */
public final class ReplicaPolicy {
    /** A replica of {@code key}'s value offered to {@code machine}, which read it {@code readsPerSecond}. */
    public record Choice(long key, int machine, double readsPerSecond) {
    }

    private ReplicaPolicy() {
    }

    /**
     * @param reports    the interval's monitor reports, one per machine
     * @param placement  the keys' homes
     * @param machines   machines of the cluster
     * @param decided    the coordinator's decisions of the same interval (their targets get no replica)
     * @param perMachine at most this many replicas offered to one machine per interval
     */
    public static List<Choice> choose(List<MonitorReport> reports, Placement placement, int machines,
                                      Decisions decided, int perMachine) {
        // One row per (key, reader) that may want a replica, in primitive arrays: this runs at every instant poll and
        // interval end over up to hundreds of thousands of reported keys, and maps of boxed keys to lists of records
        // made it the largest C2 compilation of a split-cache-replica run (3 compilations in a 10 s window, 0.58 s of
        // compiler time taken from the query threads on a 2-core host).
        int capacity = 0;
        for (MonitorReport r : reports) {
            capacity += r.keys().size();
        }
        long[] keys = new long[capacity];
        int[] readers = new int[capacity];
        double[] rates = new double[capacity];
        boolean[] movedElsewhere = new boolean[capacity];
        Long2LongHashMap readerCount = new Long2LongHashMap(0);
        int rows = 0;
        for (MonitorReport r : reports) {
            for (KeyRate k : r.keys()) {
                // The home only when it read the value elsewhere: its reads of a value it holds are local.
                int home = placement.home(k.key());
                if (k.rate() > 0 && (home != r.machine() || k.host() != r.machine())) {
                    keys[rows] = k.key();
                    readers[rows] = r.machine();
                    rates[rows] = k.rate();
                    // The reporter saw the value on a machine other than its home and itself (moved to another reader).
                    movedElsewhere[rows] = k.host() != home && k.host() != r.machine();
                    readerCount.put(k.key(), readerCount.get(k.key()) + 1);
                    rows++;
                }
            }
        }
        Long2LongHashMap targets = new Long2LongHashMap(-1);
        for (Decisions.Approval a : decided.approvals()) {
            targets.put(a.key(), a.target());
        }
        int offered = 0;
        for (int i = 0; i < rows; i++) {
            // Read from one machine only: migration makes it local there, unless the value already moved to another
            // reader and stays (the coordinator's margin keeps a value at a host that reads it too, which does not
            // report its local reads): then the remote reader's reads stay remote, and only a replica serves them.
            boolean wanted = readerCount.get(keys[i]) >= 2 || movedElsewhere[i];
            if (wanted && targets.get(keys[i]) != readers[i]) {
                keys[offered] = keys[i];
                readers[offered] = readers[i];
                rates[offered] = rates[i];
                offered++;
            }
        }
        int[] count = new int[machines];
        List<Choice> chosen = new ArrayList<>();
        for (int i : HottestFirst.order(rates, offered)) {
            if (count[readers[i]]++ < perMachine) {
                chosen.add(new Choice(keys[i], readers[i], rates[i]));
            }
        }
        return chosen;
    }
}
