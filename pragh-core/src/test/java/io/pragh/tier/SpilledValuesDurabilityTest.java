package io.pragh.tier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.durability.SyncPolicy;
import io.pragh.address.Address;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import io.pragh.store.Session;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values on a memory node are logged at their keys' homes like any other, so when the memory node goes (the memory
 * node alone restarting, or the whole cluster stopping and starting again on its data directory) every acknowledged
 * value, including those written while they lived far, is recovered from the logs.
 */
class SpilledValuesDurabilityTest {
    private static final int KEYS = 300;

    private static EmbeddedCluster cluster(Path dir) {
        return EmbeddedCluster.builder().machines(2).memoryNodes(1, 8 << 20).workersPerMachine(1)
            .keysPerMachine(10_000).valueBytesPerMachine(8 << 20).remoteLatencyNs(0)
            .durability(dir, SyncPolicy.BATCH, 60_000)
            .tiering(TieringConfig.defaults().withLocalBudgetBytes(8 << 10).withIntervalMillis(TieringConfig.MANUAL))
            .build();
    }

    private static long key(int v) {
        return KeyLayout.key(v, 0, KeyLayout.VERTEX);
    }

    private static byte[] value(int v, String tag) {
        return String.format("%-80s", tag + "-" + v).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void valuesSpilledAndWrittenOnAMemoryNodeSurviveItsRestartThroughTheLog(@TempDir Path dir) {
        try (EmbeddedCluster c = cluster(dir)) {
            for (int v = 0; v < KEYS; v++) {
                c.homeOf(key(v)).put(key(v), value(v, "first"));
            }
            c.tiering().runRound();
            assertTrue(c.tiering().bytes().far() > 10_000, "values went far: "
                + c.tiering().bytes() + ", moved " + c.tiering().demoted() + ", failed " + c.tiering().failed());
            for (int v = 0; v < KEYS; v += 3) {
                c.homeOf(key(v)).put(key(v), value(v, "while-far")); // forwarded to the memory node
            }
        }
        try (EmbeddedCluster c = cluster(dir)) {
            for (int v = 0; v < KEYS; v++) {
                assertArrayEquals(value(v, v % 3 == 0 ? "while-far" : "first"), c.machine(1 - c.home(key(v))).get(key(v)),
                    "key of vertex " + v);
            }
        }
    }

    /** The machine that holds key {@code key}'s value now, as its home's address word says. */
    private static int hostOf(EmbeddedCluster c, long key) {
        Session s = c.homeOf(key).session();
        assertTrue(s.locate(key, false), "key " + key + " is at its home");
        return Address.host(s.address(), s.home());
    }

    private static int valuesOn(EmbeddedCluster c, int machine) {
        int n = 0;
        for (int v = 0; v < KEYS; v++) {
            n += hostOf(c, key(v)) == machine ? 1 : 0;
        }
        return n;
    }

    private static void assertValues(EmbeddedCluster c, String[] tags, String when) {
        for (int v = 0; v < KEYS; v++) {
            // Read from the compute machine that is not the key's home: a remote GET, through the home's word.
            assertArrayEquals(value(v, tags[v]), c.machine(1 - c.home(key(v))).get(key(v)),
                "vertex " + v + " " + when);
        }
    }

    @Test
    void valuesSpilledToAMemoryNodeSurviveThatNodeAloneRestartingAndSpillToTheNewNodeAgain(@TempDir Path dir) {
        String[] tags = new String[KEYS];
        try (EmbeddedCluster c = cluster(dir)) {
            int node = c.computeMachineCount();
            for (int v = 0; v < KEYS; v++) {
                tags[v] = "first";
                c.homeOf(key(v)).put(key(v), value(v, tags[v]));
            }
            c.tiering().runRound();
            int spilled = valuesOn(c, node);
            assertTrue(spilled > KEYS / 4, "values went to the memory node: " + spilled);
            for (int v = 0; v < KEYS; v += 3) {
                if (hostOf(c, key(v)) == node) {
                    tags[v] = "while-far";
                    c.homeOf(key(v)).put(key(v), value(v, tags[v])); // forwarded to the memory node
                }
            }

            Machine before = c.machine(node);
            Machine after = c.restartMemoryNode(node);

            assertNotSame(before, after, "a new machine took the memory node's id");
            assertEquals(0, valuesOn(c, node), "every value that lived on the lost node is back at its home");
            assertEquals(0, after.store().values().liveBytes(), "the new node starts empty");
            assertValues(c, tags, "after the memory node restarted");
            for (int v = 1; v < KEYS; v += 5) {
                tags[v] = "after-restart";
                c.homeOf(key(v)).put(key(v), value(v, tags[v]));
            }
            c.tiering().runRound();
            assertTrue(valuesOn(c, node) > KEYS / 4, "the tier spills to the restarted node again: "
                + valuesOn(c, node));
            int forwarded = 0;
            for (int v = 0; v < KEYS; v += 7) {
                if (hostOf(c, key(v)) == node) {
                    tags[v] = "on-new-node";
                    c.homeOf(key(v)).put(key(v), value(v, tags[v])); // check-and-forward to the new node
                    assertEquals(node, hostOf(c, key(v)), "the forwarded PUT wrote where the value lives");
                    forwarded++;
                }
            }
            assertTrue(forwarded > 0, "some PUTs were forwarded to the new node");
            assertValues(c, tags, "written on the restarted node");
        }
        try (EmbeddedCluster c = cluster(dir)) {
            assertValues(c, tags, "after the whole cluster restarted too");
        }
    }
}
