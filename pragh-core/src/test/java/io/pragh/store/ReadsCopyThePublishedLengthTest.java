package io.pragh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.address.Address;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.embedded.Machine;
import io.pragh.fabric.FabricStats;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.KeyRegion;
import io.pragh.values.ValueRecord;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * A GET copies a record's header and the payload its header publishes, not the slack its size class keeps for appends
 * in place: locally and through a batched in-process READ. Bytes written past the published length (an append not yet
 * published) are never part of a value read.
 */
class ReadsCopyThePublishedLengthTest {
    private static final int ENTRIES = 6;
    private static final int PUBLISHED = ValueRecord.HEADER_BYTES + ENTRIES * Long.BYTES;

    @Test
    void getsCopyOnlyTheHeaderAndThePublishedPayloadOfARecordWithSlack() {
        try (EmbeddedCluster c = EmbeddedCluster.builder().machines(2).workersPerMachine(1).keysPerMachine(1000)
            .valueBytesPerMachine(16 << 20).cacheBytes(1 << 16).leases(600_000, 600_000).remoteLatencyNs(0).build()) {
            long key = KeyLayout.key(5, 0, KeyLayout.OUT);
            Machine home = c.homeOf(key);
            Machine reader = c.machine(home == c.machine(0) ? 1 : 0);
            for (int i = 1; i <= ENTRIES; i++) {
                byte[] entry = new byte[8];
                new UnsafeBuffer(entry).putLong(0, i);
                home.update(key, Mutators.APPEND, entry);
            }
            Session homeSession = home.session();
            homeSession.locate(key, false);
            long address = homeSession.address();
            assertTrue(Address.byteSize(address) > PUBLISHED,
                "the list's record has slack: " + Address.byteSize(address));
            // An append past the published length, not published: bytes no read may return.
            long offset = Address.byteOffset(address);
            for (long at = PUBLISHED; at < Address.byteSize(address); at += 8) {
                home.store().values().region().putLong(offset + at, 0x5A5A5A5A5A5A5A5AL);
            }
            FabricStats.Snapshot single = reader.stats().snapshot();
            assertEquals(expected(), entries(reader.session().get(key)), "a single GET from the other machine");
            FabricStats.Snapshot singleRead = reader.stats().snapshot().minus(single);
            long bucketReads = singleRead.remoteReads() - 1;
            assertEquals(PUBLISHED, singleRead.remoteReadBytes() - KeyRegion.BUCKET_BYTES * bucketReads,
                "the single GET's READ of the value copied the published record (beside its bucket READ, if any)");

            Session s = reader.store().newSession();
            FabricStats.Snapshot before = reader.stats().snapshot();
            List<List<Long>> batched = new ArrayList<>();
            s.getAll(new long[] {key}, 0, 1, (i, k, v) -> batched.add(entries(v)));
            FabricStats.Snapshot read = reader.stats().snapshot().minus(before);
            assertEquals(List.of(expected()), batched, "a batched GET from the other machine");
            assertEquals(1, read.remoteReads(), "one READ, its address from the cache");
            assertEquals(PUBLISHED, read.remoteReadBytes(), "the READ copied the published record, not its slack");

            Session local = home.store().newSession();
            FabricStats.Snapshot homeBefore = home.stats().snapshot();
            List<List<Long>> here = new ArrayList<>();
            local.getAll(new long[] {key}, 0, 1, (i, k, v) -> here.add(entries(v)));
            assertEquals(List.of(expected()), here, "a batched GET at the home");
            assertEquals(KeyRegion.SLOT_BYTES + PUBLISHED,
                home.stats().snapshot().minus(homeBefore).localBytes(), "the key's slot and the published record");
            assertEquals(expected(), entries(local.get(key)), "a single GET at the home");
        }
    }

    private static List<Long> expected() {
        List<Long> out = new ArrayList<>();
        for (long i = 1; i <= ENTRIES; i++) {
            out.add(i);
        }
        return out;
    }

    private static List<Long> entries(ValueView v) {
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < v.longCount(); i++) {
            out.add(v.getLong(i));
        }
        return out;
    }
}
