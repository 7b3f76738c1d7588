package io.pragh.durability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.store.MachineStore;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The loss of a migrated value's host as far as one key is concerned, in a durable embedded cluster: the host's copy
 * and what its cache knew of the key go, and the key's home restores it from its log, as its recovery from the
 * host's crash would. An update the host applied whose LOG reaches the home after this must be refused.
 *
 * <pre>{@code
 * byte[] restored = HostLoss.loseAndRestore(cluster, key, home, away);
 * }</pre>
 */
final class HostLoss {
    private HostLoss() {
    }

    /** Loses the copy of {@code key} on {@code away} and restores it at {@code home}; returns the restored value. */
    static byte[] loseAndRestore(EmbeddedCluster c, long key, int home, int away) {
        MachineStore store = c.machine(home).store();
        long lost = store.keys().address(store.keys().find(key));
        assertEquals(away, Address.host(lost, home), "the key's newest record lives on the host");
        MachineStore host = c.machine(away).store();
        host.values().region().putLongVolatile(Address.byteOffset(lost), 0);
        host.cache().invalidate(key, lost);
        var d = c.machine(home).durability().durableValues(k -> k == key).get(key);
        assertTrue(store.restore(key, lost, d.version(), new UnsafeBuffer(d.value()), 0, d.value().length).join(),
            "the home restored the key");
        return d.value();
    }
}
