package io.pragh.fabric.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A machine's region table, cut into messages as small as the configuration allows, rebuilds exactly at a peer. */
class RegionTableTest {
    private MachineMemory memory;
    private Transport transport;
    private LocalMemory local;

    @BeforeEach
    void register() {
        SimulatedNicConformanceTest.assumeLibrary();
        memory = new MachineMemory(ChunkedRegion.allocate("keys", 64 * 1024, 1024),
            ChunkedRegion.allocate("values", 40 * 4096, 4096), ChunkedRegion.allocate("reclaim", 100, 4096));
        transport = new SimulatedNic().transport(new InetSocketAddress("127.0.0.1", 1));
        local = new LocalMemory(transport, memory);
    }

    @AfterEach
    void release() {
        if (local != null) {
            local.close();
            transport.close();
            memory.keys().close();
            memory.values().close();
            memory.reclaim().close();
        }
    }

    private List<byte[]> encode(int maxBytes) {
        List<byte[]> messages = new ArrayList<>();
        RegionTable.encode(local, maxBytes, (m, length) -> {
            byte[] copy = new byte[length];
            m.getBytes(0, copy);
            messages.add(copy);
        });
        return messages;
    }

    @Test
    void everyChunkAddressAndKeyArrivesEvenInSmallMessages() {
        List<byte[]> messages = encode(256);
        assertTrue(messages.size() > 10, "64 key chunks alone need several 256-byte messages, got "
            + messages.size());
        RegionTable.Builder builder = new RegionTable.Builder(5);
        RemoteMemory remote = null;
        for (int i = 0; i < messages.size(); i++) {
            remote = builder.accept(new UnsafeBuffer(messages.get(i)), 0, messages.get(i).length);
            if (i < messages.size() - 1) {
                assertNull(remote, "complete only at END");
            }
        }
        for (Region r : Region.values()) {
            ChunkedRegion region = memory.region(r);
            for (int c = 0; c < region.chunkCount(); c++) {
                long offset = (long) c * region.chunkBytes() + 8;
                assertEquals(region.chunk(c).addressOffset() + 8, remote.address(r, offset, 8), r + " chunk " + c);
                assertEquals(local.chunk(r, c).rkey(), remote.rkey(r, offset), r + " chunk " + c);
            }
        }
        assertEquals(local.probeWordAddress(3), remote.probeAddress(3));
        assertEquals(local.probe().rkey(), remote.probeRkey());
    }

    @Test
    void remoteAccessesAreCheckedLikeLocalOnes() {
        RegionTable.Builder builder = new RegionTable.Builder(5);
        RemoteMemory remote = null;
        for (byte[] m : encode(4096)) {
            remote = builder.accept(new UnsafeBuffer(m), 0, m.length);
        }
        RemoteMemory r = remote;
        assertThrows(IndexOutOfBoundsException.class, () -> r.address(Region.VALUES, 40 * 4096 - 4, 8));
        assertThrows(IndexOutOfBoundsException.class, () -> r.address(Region.VALUES, -8, 8));
        IndexOutOfBoundsException crossing = assertThrows(IndexOutOfBoundsException.class,
            () -> r.address(Region.KEYS, 1020, 8));
        assertTrue(crossing.getMessage().contains("crosses a chunk boundary") && crossing.getMessage().contains(
            "machine 5"), crossing.getMessage());
        assertThrows(IllegalArgumentException.class, () -> r.atomicAddress(Region.KEYS, 12));
        assertEquals(memory.keys().chunk(1).addressOffset(), r.atomicAddress(Region.KEYS, 1024));
    }

    @Test
    void malformedTablesAreRefusedNamingThePeer() {
        List<byte[]> messages = encode(4096);
        RegionTable.Builder builder = new RegionTable.Builder(9);
        byte[] chunksFirst = messages.get(1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> builder.accept(new UnsafeBuffer(chunksFirst), 0, chunksFirst.length));
        assertTrue(e.getMessage().contains("machine 9") && e.getMessage().contains("before HEADER"), e.getMessage());
        byte[] end = messages.get(messages.size() - 1);
        RegionTable.Builder early = new RegionTable.Builder(9);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> early.accept(new UnsafeBuffer(end), 0,
            end.length)).getMessage().contains("incomplete"));
        byte[] unknown = {42, 0, 0, 0};
        assertThrows(IllegalArgumentException.class, () -> early.accept(new UnsafeBuffer(unknown), 0, 4));
    }
}
