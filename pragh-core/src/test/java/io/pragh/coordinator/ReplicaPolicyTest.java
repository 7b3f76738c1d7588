package io.pragh.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pragh.keys.Placement;
import io.pragh.monitor.KeyRate;
import io.pragh.monitor.MonitorReport;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicaPolicyTest {
    /** Every key is homed on machine 0 here. */
    private static final Placement HOME_ZERO = key -> 0;

    private static MonitorReport report(int machine, KeyRate... keys) {
        return new MonitorReport(machine, false, List.of(keys));
    }

    @Test
    void offersReplicasOnlyOfKeysReadFromSeveralMachinesAndNeverToTheHomeOfALocalValueOrTheMigrationTarget() {
        List<MonitorReport> reports = List.of(
            report(0, new KeyRate(7, 0, 900, false)),                                  // the home, value local
            report(1, new KeyRate(7, 0, 500, false), new KeyRate(8, 0, 800, false)),   // 8: read here only
            report(2, new KeyRate(7, 0, 300, false)),
            report(3, new KeyRate(7, 0, 100, false)));
        Decisions d = new Decisions(List.of(new Decisions.Approval(7, 0, 1, 500, 0)), List.of(), List.of());
        List<ReplicaPolicy.Choice> chosen = ReplicaPolicy.choose(reports, HOME_ZERO, 4, d, 10);
        assertEquals(List.of(new ReplicaPolicy.Choice(7, 2, 300), new ReplicaPolicy.Choice(7, 3, 100)), chosen);
    }

    @Test
    void offersAReplicaToAHomeThatReadsItsValueFromTheMachineItMigratedTo() {
        List<MonitorReport> reports = List.of(
            report(0, new KeyRate(7, 2, 400, true)),    // the home, tracking its value that migrated to machine 2
            report(2, new KeyRate(7, 2, 900, false)));  // the value's host (it refuses the offer: local already)
        List<ReplicaPolicy.Choice> chosen = ReplicaPolicy.choose(reports, HOME_ZERO, 3, Decisions.NONE, 10);
        assertEquals(List.of(new ReplicaPolicy.Choice(7, 2, 900), new ReplicaPolicy.Choice(7, 0, 400)), chosen);
    }

    /**
     * A value that migrated to machine 2, which keeps reading it (locally: unreported), read remotely by machine 1
     * alone: the coordinator's margin leaves it on 2, so only a replica makes machine 1's reads local. A lone reader
     * of a value at its home, or one the value is moving to, gets none (migration serves it).
     */
    @Test
    void offersAReplicaToALoneReaderOfAValueThatMigratedToAnotherReaderAndStays() {
        List<MonitorReport> reports = List.of(
            report(1, new KeyRate(7, 2, 400, false), new KeyRate(8, 0, 300, false), new KeyRate(9, 2, 200, false)));
        Decisions d = new Decisions(List.of(new Decisions.Approval(9, 2, 1, 200, 0)), List.of(), List.of());
        List<ReplicaPolicy.Choice> chosen = ReplicaPolicy.choose(reports, HOME_ZERO, 3, d, 10);
        assertEquals(List.of(new ReplicaPolicy.Choice(7, 1, 400)), chosen);
    }

    @Test
    void offersTheHottestKeysFirstWithinTheBudgetOfEachMachine() {
        List<MonitorReport> reports = List.of(
            report(1, new KeyRate(1, 0, 10, false), new KeyRate(2, 0, 30, false), new KeyRate(3, 0, 20, false)),
            report(2, new KeyRate(1, 0, 10, false), new KeyRate(2, 0, 30, false), new KeyRate(3, 0, 20, false)));
        List<ReplicaPolicy.Choice> chosen = ReplicaPolicy.choose(reports, HOME_ZERO, 3, Decisions.NONE, 2);
        assertEquals(4, chosen.size());
        assertEquals(List.of(2L, 2L, 3L, 3L), chosen.stream().map(ReplicaPolicy.Choice::key).toList());
    }
}
