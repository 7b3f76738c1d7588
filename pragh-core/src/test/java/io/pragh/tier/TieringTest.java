package io.pragh.tier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import io.pragh.store.Session;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TieringTest {
    private static final int KEYS = 400;
    /** About a third of what the values take (each record: a 24-byte header and 100 bytes, rounded to its class). */
    private static final long BUDGET = 16 << 10;
    private EmbeddedCluster cluster;

    @BeforeEach
    void start() {
        cluster = EmbeddedCluster.builder().machines(2).memoryNodes(1, 8 << 20).workersPerMachine(1)
            .keysPerMachine(10_000).valueBytesPerMachine(8 << 20).remoteLatencyNs(0)
            .tiering(TieringConfig.defaults().withLocalBudgetBytes(BUDGET).withIntervalMillis(TieringConfig.MANUAL)
                .withHotAccesses(4))
            .build();
        for (int v = 0; v < KEYS; v++) {
            cluster.homeOf(key(v)).put(key(v), value(v, "first"));
        }
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private static long key(int v) {
        return KeyLayout.key(v, 0, KeyLayout.VERTEX);
    }

    private static byte[] value(int v, String tag) {
        return String.format("%-100s", tag + "-" + v).getBytes(StandardCharsets.UTF_8);
    }

    private int hostOf(long key) {
        Session s = cluster.homeOf(key).session();
        assertTrue(s.locate(key, false));
        return Address.host(s.address(), s.home());
    }

    private int farValues() {
        int far = 0;
        for (int v = 0; v < KEYS; v++) {
            far += cluster.role(hostOf(key(v))) == MachineRole.MEMORY ? 1 : 0;
        }
        return far;
    }

    @Test
    void memoryNodesHomeNoKeyAndComeAfterTheComputeMachines() {
        assertEquals(2, cluster.computeMachineCount());
        assertEquals(3, cluster.machineCount());
        assertEquals(MachineRole.MEMORY, cluster.role(2));
        for (int v = 0; v < KEYS; v++) {
            assertTrue(cluster.home(key(v)) < 2);
        }
        assertEquals(0, cluster.machine(2).store().keys().size());
    }

    @Test
    void aRoundBringsEveryComputeMachineWithinItsBudgetAndKeepsItThere() {
        Tiering tiering = cluster.tiering();
        assertTrue(tiering.localBytes(0) + tiering.localBytes(1) > 2 * BUDGET);
        tiering.runRound();
        assertTrue(farValues() > 0);
        for (int round = 0; round < 3; round++) {
            // Writes between rounds may exceed it; a round brings it back.
            for (int v = 0; v < KEYS; v += 7) {
                cluster.machine(0).put(key(v), value(v, "round" + round));
            }
            tiering.runRound();
            for (int m = 0; m < 2; m++) {
                assertTrue(tiering.localBytes(m) <= BUDGET, "machine " + m + " after round " + round);
            }
        }
        assertTrue(tiering.bytes().far() > 0);
    }

    @Test
    void spilledValuesStayReadableAndWritableThroughCheckAndForward() {
        cluster.tiering().runRound();
        int checked = 0;
        for (int v = 0; v < KEYS; v++) {
            long k = key(v);
            if (cluster.role(hostOf(k)) != MachineRole.MEMORY) {
                continue;
            }
            Machine reader = cluster.machine(1 - cluster.home(k));
            assertArrayEquals(value(v, "first"), reader.get(k));
            cluster.homeOf(k).put(k, value(v, "second"));           // forwarded to the memory node
            assertEquals(MachineRole.MEMORY, cluster.role(hostOf(k)));
            assertArrayEquals(value(v, "second"), reader.get(k));
            assertArrayEquals(value(v, "second"), cluster.homeOf(k).get(k));
            checked++;
        }
        assertTrue(checked > KEYS / 3, checked + " far values checked");
    }

    @Test
    void aFarValueThatTurnsHotComesBackToItsHome() {
        Tiering tiering = cluster.tiering();
        tiering.runRound();
        int hot = -1;
        for (int v = 0; v < KEYS && hot < 0; v++) {
            if (cluster.role(hostOf(key(v))) == MachineRole.MEMORY) {
                hot = v;
            }
        }
        assertTrue(hot >= 0);
        long k = key(hot);
        Machine home = cluster.homeOf(k);
        for (int i = 0; i < 20; i++) {
            assertArrayEquals(value(hot, "first"), home.get(k));
        }
        tiering.runRound();
        assertEquals(home.id(), hostOf(k));
        assertArrayEquals(value(hot, "first"), home.get(k));
        assertTrue(tiering.promoted() > 0);
        assertTrue(tiering.localBytes(home.id()) <= BUDGET);
    }

    @Test
    void anUnknownRoleIsAClearError() {
        assertEquals(MachineRole.MEMORY, MachineRole.parse("Memory"));
        String message = assertThrows(IllegalArgumentException.class, () -> MachineRole.parse("storage")).getMessage();
        assertTrue(message.contains("unknown machine role 'storage'") && message.contains("compute or memory"), message);
    }
}
