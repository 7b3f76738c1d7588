package io.pragh.consistency;

import io.pragh.chaos.ChaosValues;
import io.pragh.chaos.RecordingClient;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.linearizability.History;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bug 3 of issue 11: a key is inserted, deleted, the cluster restarts, the key is inserted again and acknowledged,
 * and the cluster restarts again. Recovery must keep the re-insert: the versions a home hands out after a restart
 * must stay above every version its log holds, a deleted key's included, or the re-insert sorts before the delete at
 * the next replay and is lost. The key is the only one its home holds, so no other key's version hides the fault.
 * Every restart is a whole durable embedded cluster closed and built again on the same directories; the history,
 * over all three lives of the cluster, is checked by search.
 */
class DeleteRestartReinsertTest {
    private static final long SEED = 3;

    private static EmbeddedCluster open(Path dir) {
        return Scenarios.durableCluster(Scenarios.fabric(2, SEED), 2, dir, 10_000);
    }

    @Test
    void aKeyDeletedThenReinsertedAcrossRestartsKeepsItsReinsertedValue(@TempDir Path dir) {
        History history = new History();
        RecordingClient client = new RecordingClient(history.recorder(1));
        long key;
        try (EmbeddedCluster c = open(dir)) {
            key = Scenarios.keyHomedAt(c, 0, 1);
            client.put(c.machine(1), key, ChaosValues.put(key, 1, 1, 8));
            client.get(c.machine(0), key);
            client.delete(c.machine(1), key);
            client.get(c.machine(0), key);
        }
        try (EmbeddedCluster c = open(dir)) {
            client.get(c.machine(1), key);
            client.put(c.machine(1), key, ChaosValues.put(key, 1, 2, 8));
            client.get(c.machine(0), key);
        }
        try (EmbeddedCluster c = open(dir)) {
            client.get(c.machine(0), key);
            client.get(c.machine(1), key);
        }
        Scenarios.assertLinearizable("delete, restart, re-insert, restart", SEED, history.drain());
    }
}
