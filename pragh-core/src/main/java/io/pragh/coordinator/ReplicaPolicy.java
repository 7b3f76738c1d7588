package io.pragh.coordinator;

import io.pragh.keys.Placement;
import io.pragh.monitor.KeyRate;
import io.pragh.monitor.MonitorReport;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
        Map<Long, List<Choice>> readers = new HashMap<>();
        // Keys whose value a reporter saw on a machine other than its home and itself (moved to another reader).
        Map<Long, Boolean> movedElsewhere = new HashMap<>();
        for (MonitorReport r : reports) {
            for (KeyRate k : r.keys()) {
                // The home only when it read the value elsewhere: its reads of a value it holds are local.
                int home = placement.home(k.key());
                if (k.rate() > 0 && (home != r.machine() || k.host() != r.machine())) {
                    readers.computeIfAbsent(k.key(), x -> new ArrayList<>())
                        .add(new Choice(k.key(), r.machine(), k.rate()));
                    movedElsewhere.put(k.key(), k.host() != home && k.host() != r.machine());
                }
            }
        }
        Map<Long, Integer> targets = new HashMap<>();
        for (Decisions.Approval a : decided.approvals()) {
            targets.put(a.key(), a.target());
        }
        List<Choice> offered = new ArrayList<>();
        for (List<Choice> byMachine : readers.values()) {
            // Read from one machine only: migration makes it local there, unless the value already moved to another
            // reader and stays (the coordinator's margin keeps a value at a host that reads it too, which does not
            // report its local reads): then the remote reader's reads stay remote, and only a replica serves them.
            if (byMachine.size() < 2 && !movedElsewhere.get(byMachine.get(0).key())) {
                continue;
            }
            for (Choice c : byMachine) {
                if (targets.getOrDefault(c.key(), -1) != c.machine()) {
                    offered.add(c);
                }
            }
        }
        double[] rates = new double[offered.size()];
        for (int i = 0; i < rates.length; i++) {
            rates[i] = offered.get(i).readsPerSecond();
        }
        int[] count = new int[machines];
        List<Choice> chosen = new ArrayList<>();
        for (int i : HottestFirst.order(rates, rates.length)) {
            Choice c = offered.get(i);
            if (count[c.machine()]++ < perMachine) {
                chosen.add(c);
            }
        }
        return chosen;
    }
}
