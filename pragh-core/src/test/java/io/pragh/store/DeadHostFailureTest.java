package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.values.ValueRecord;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class DeadHostFailureTest {
    private static final byte[] VALUE = {1, 2, 3, 4, 5, 6, 7, 8};

    /** Key homed on machine 0 whose value migrated to machine 2. */
    private static long migratedKey(TestStores c) {
        long key = c.keyHomedOn(0, 1);
        assertEquals(2, Address.host(c.placedOn(2, key, VALUE), 0));
        return key;
    }

    @Test
    void anUpdateForwardedToADeadHostIsRefusedBackToItsOriginAsRetryable() throws Exception {
        try (TestStores c = new TestStores(3)) {
            long key = migratedKey(c);
            c.fabric.setReachable(2, false);
            UnsafeBuffer arg = new UnsafeBuffer(new byte[] {9, 9, 9, 9, 9, 9, 9, 9});
            for (int origin : new int[] {1, 0}) {
                // Origin 1 sends to the home, which forwards to the dead host; origin 0 is the home itself.
                ExecutionException e = assertThrows(ExecutionException.class,
                    () -> c.stores[origin].update(key, Mutators.APPEND, arg, 0, 8).get(60, TimeUnit.SECONDS),
                    "origin " + origin + ": the update fails instead of hanging");
                HostUnavailableException u = assertInstanceOf(HostUnavailableException.class, e.getCause(),
                    "origin " + origin + ": " + e.getCause());
                assertTrue(u.retryable());
                assertTrue(u.getMessage().contains("key " + key), u.getMessage());
            }
            c.fabric.setReachable(2, true);
            assertArrayEquals(VALUE, c.stores[1].newSession().get(key).toBytes(), "no refused update took effect");
            c.stores[1].update(key, Mutators.APPEND, arg, 0, 8).get(60, TimeUnit.SECONDS);
            assertEquals(16, c.stores[1].newSession().get(key).length(), "a retry once the host is back succeeds");
        }
    }

    @Test
    void aGetWhoseHomeNamesForeignMemoryFailsWithARetryableStaleAddress() {
        try (TestStores c = new TestStores(3)) {
            long key = migratedKey(c);
            long lost = c.addressAtHome(key);
            assertArrayEquals(VALUE, c.stores[1].newSession().get(key).toBytes());
            // Machine 2 restarted: the memory the home's word names now holds another key's record.
            var region = c.stores[2].values().region();
            long offset = Address.byteOffset(lost);
            region.putLong(offset + ValueRecord.KEY_OFFSET, key + 1);
            for (int reader : new int[] {1, 0, 2}) {
                StaleAddressException e = assertThrows(StaleAddressException.class,
                    () -> c.stores[reader].newSession().get(key), "reader " + reader);
                assertTrue(e.retryable());
                assertTrue(e.getMessage().contains("key " + key), e.getMessage());
            }
            // Recovery puts the value back at home; GETs succeed again.
            assertTrue(c.stores[0].restore(key, lost, 1, new UnsafeBuffer(VALUE), 0, VALUE.length).join());
            assertArrayEquals(VALUE, c.stores[1].newSession().get(key).toBytes());
        }
    }
}
