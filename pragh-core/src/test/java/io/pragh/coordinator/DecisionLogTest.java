package io.pragh.coordinator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.junit.jupiter.api.Test;

/** One line per interval that approved anything: how many keys, to which machines, the rates before. */
class DecisionLogTest {
    @Test
    void anIntervalsApprovalsMakeOneLineAndTheNextIntervalStartsAfresh() {
        DecisionLog log = new DecisionLog();
        log.add(new Decisions(List.of(new Decisions.Approval(1, 0, 2, 300.0, Double.NaN)), List.of(), List.of()));
        log.add(new Decisions(List.of(new Decisions.Approval(2, 1, 2, 150.5, 20.0),
            new Decisions.Approval(3, 2, 0, 50.0, Double.NaN)), List.of(), List.of()));
        assertEquals("migration interval 4: approved 3 keys, to machine 0: 1, machine 2: 2; remote rate before"
            + " 500.5/s (applicants' accesses to those keys), 20.0/s at their hosts; remote access rate 0.250",
            log.endInterval(4, 0.25));
        assertNull(log.endInterval(5, 0.1), "nothing approved since: no line");
        log.add(new Decisions.Approval(9, 0, 1, 12.0, Double.NaN));
        assertEquals("migration interval 6: approved 1 key, to machine 1: 1; remote rate before 12.0/s (applicants'"
            + " accesses to those keys), their hosts' rates not measured (eager)", log.endInterval(6, Double.NaN));
    }
}
