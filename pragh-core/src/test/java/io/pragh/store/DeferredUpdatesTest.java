package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.keys.KeyLayout;
import io.pragh.values.ValueRecord;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Updates that must wait for their key's previous update are held by {@link DeferredUpdates}. The previous update is
 * played here by the test holding the value's record locked, as an update whose CAS's outcome is not yet known (its
 * home unreachable) holds it.
 */
class DeferredUpdatesTest {
    private static final long STUCK = KeyLayout.key(1, 0, KeyLayout.OUT);
    private static final long OTHER = KeyLayout.key(2, 0, KeyLayout.OUT);

    private static EmbeddedCluster cluster() {
        return EmbeddedCluster.builder().machines(1).workersPerMachine(1).keysPerMachine(1000)
            .valueBytesPerMachine(4 << 20).cacheBytes(1 << 16).remoteLatencyNs(0).build();
    }

    /**
     * One key's unsettled update held up every other key's deferred updates while the deferral thread waited for it
     * in place (up to its 5 s patience): one stuck key stalled a machine's deferred writes.
     */
    @Test
    void aKeyWhosePreviousUpdateStaysUnsettledHoldsUpOnlyItsOwnLaterUpdates() throws Exception {
        try (EmbeddedCluster c = cluster()) {
            Machine m = c.machine(0);
            m.put(STUCK, bytes("s0"));
            m.put(OTHER, bytes("o0"));
            Locked stuck = lock(m, STUCK);
            Locked other = lock(m, OTHER);
            long deferredBefore = m.store().deferredUpdates().deferred();
            CompletableFuture<Void> s1 = m.updateAsync(STUCK, Mutators.SET, bytes("s1"));
            CompletableFuture<Void> o1 = m.updateAsync(OTHER, Mutators.SET, bytes("o1"));
            CompletableFuture<Void> s2 = m.updateAsync(STUCK, Mutators.APPEND, bytes("+s2"));
            assertEquals(3, m.store().deferredUpdates().deferred() - deferredBefore, "all three wait");

            other.release();
            o1.get(60, TimeUnit.SECONDS);
            assertFalse(s1.isDone() || s2.isDone(), "the stuck key's updates still wait, behind its held record");

            stuck.release();
            s1.get(60, TimeUnit.SECONDS);
            s2.get(60, TimeUnit.SECONDS);
            assertArrayEquals(bytes("s1+s2"), m.get(STUCK), "the key's updates in the order they were made");
            assertArrayEquals(bytes("o1"), m.get(OTHER));
        }
    }

    @Test
    void anUpdateStillWaitingAfterItsPatienceIsRefusedAndChangesNothing() throws Exception {
        try (EmbeddedCluster c = cluster()) {
            Machine m = c.machine(0);
            m.put(STUCK, bytes("s0"));
            Locked stuck = lock(m, STUCK);
            CompletableFuture<Void> s1 = m.updateAsync(STUCK, Mutators.SET, bytes("s1"));
            ExecutionException refused = assertThrows(ExecutionException.class, () -> s1.get(60, TimeUnit.SECONDS));
            assertTrue(refused.getCause().getMessage().contains("did not take effect"), refused.getCause().toString());
            stuck.release();
            assertArrayEquals(bytes("s0"), m.get(STUCK));
            m.put(STUCK, bytes("s2"));
            assertArrayEquals(bytes("s2"), m.get(STUCK), "the key takes updates again once its record is settled");
        }
    }

    /** The key's record at its home, locked by a CAS of its header until {@link #release}. */
    private record Locked(MachineStore store, long offset, long header) {
        void release() {
            assertEquals(header | ValueRecord.LOCKED,
                store.regions().casHeader(store.id(), offset, header | ValueRecord.LOCKED, header));
        }
    }

    private static Locked lock(Machine m, long key) {
        MachineStore store = m.store();
        long address = store.keys().address(store.keys().find(key));
        long offset = Address.byteOffset(address);
        long header = store.values().region().getLongVolatile(offset);
        assertEquals(0, header & (ValueRecord.LOCKED | ValueRecord.INVALIDATION_PENDING), "settled before the test");
        assertEquals(header, store.regions().casHeader(store.id(), offset, header, header | ValueRecord.LOCKED));
        return new Locked(store, offset, header);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
