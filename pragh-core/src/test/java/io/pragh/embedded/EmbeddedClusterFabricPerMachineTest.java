package io.pragh.embedded;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.fabric.Endpoint;
import io.pragh.fabric.Fabric;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.inprocess.InProcessFabric;
import io.pragh.keys.KeyLayout;
import io.pragh.migration.Migrator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link EmbeddedCluster.Builder#fabricPerMachine}: machine i attaches to the fabric the factory made for i, data
 * and migrations cross between machines through those fabrics, and the cluster closes each distinct fabric once,
 * also when its build fails half way.
 */
class EmbeddedClusterFabricPerMachineTest {
    private static final int MACHINES = 3;

    /** One machine's view of a shared in-process fabric that records what the cluster did with it. */
    static final class RecordingFabric implements Fabric {
        final InProcessFabric shared;
        final List<Integer> attached = new ArrayList<>();
        int closes;

        RecordingFabric(InProcessFabric shared) {
            this.shared = shared;
        }

        @Override
        public String name() {
            return "recording";
        }

        @Override
        public Endpoint attach(int machine, MachineMemory memory, MessageHandler handler) {
            attached.add(machine);
            return shared.attach(machine, memory, handler);
        }

        @Override
        public void close() {
            closes++; // the shared fabric is the test's to close
        }
    }

    private static EmbeddedCluster.Builder small() {
        return EmbeddedCluster.builder().machines(MACHINES).workersPerMachine(1).keysPerMachine(1000)
            .valueBytesPerMachine(1 << 20).cacheBytes(1 << 16);
    }

    @Test
    void eachMachineAttachesToItsOwnFabricAndTheClusterClosesEachOnce() {
        List<Integer> asked = new ArrayList<>();
        List<RecordingFabric> made = new ArrayList<>();
        try (InProcessFabric shared = new InProcessFabric(MACHINES, 0)) {
            EmbeddedCluster cluster = small().fabricPerMachine(i -> {
                asked.add(i);
                RecordingFabric f = new RecordingFabric(shared);
                made.add(f);
                return f;
            }).build();
            try {
                assertEquals(List.of(0, 1, 2), asked, "the factory is asked once per machine, in id order");
                for (int i = 0; i < MACHINES; i++) {
                    assertEquals(List.of(i), made.get(i).attached, "machine " + i + " attached to its own fabric");
                    assertSame(made.get(i), cluster.fabric(i));
                }
                assertSame(made.get(0), cluster.fabric());

                long key = KeyLayout.key(7, 0, KeyLayout.VERTEX);
                int home = cluster.home(key);
                int reader = (home + 1) % MACHINES;
                byte[] value = "over per-machine fabrics".getBytes(StandardCharsets.UTF_8);
                cluster.machine(reader).put(key, value); // forwarded to the home through the reader's fabric
                assertArrayEquals(value, cluster.machine((home + 2) % MACHINES).get(key));
                assertEquals(Migrator.Outcome.MIGRATED, cluster.machine(reader).migrate(key));
                var homeKeys = cluster.homeOf(key).store().keys();
                assertEquals(reader, Address.host(homeKeys.address(homeKeys.find(key)), home));
                assertArrayEquals(value, cluster.machine(home).get(key));
            } finally {
                cluster.close();
            }
            for (int i = 0; i < MACHINES; i++) {
                assertEquals(1, made.get(i).closes, "fabric of machine " + i + " closed exactly once");
            }
        }
    }

    @Test
    void aFabricSharedByEveryMachineIsClosedOnce() {
        try (InProcessFabric inner = new InProcessFabric(MACHINES, 0)) {
            RecordingFabric one = new RecordingFabric(inner);
            small().fabricPerMachine(i -> one).build().close();
            assertEquals(List.of(0, 1, 2), one.attached);
            assertEquals(1, one.closes);
        }
    }

    @Test
    void aFailedBuildClosesTheFabricsItWasGiven() {
        List<RecordingFabric> made = new ArrayList<>();
        try (InProcessFabric shared = new InProcessFabric(MACHINES, 0)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> small().fabricPerMachine(i -> {
                if (i == 2) {
                    throw new IllegalStateException("no port for machine 2");
                }
                RecordingFabric f = new RecordingFabric(shared);
                made.add(f);
                return f;
            }).build());
            assertEquals("no port for machine 2", e.getMessage());
            assertEquals(2, made.size());
            for (RecordingFabric f : made) {
                assertEquals(1, f.closes, "a fabric handed to the failed build is closed");
            }
        }
    }

    @Test
    void aFactoryThatReturnsNothingIsNamed() {
        NullPointerException e = assertThrows(NullPointerException.class,
            () -> small().fabricPerMachine(i -> null).build());
        assertTrue(e.getMessage().contains("machine 0"), e.getMessage());
    }
}
