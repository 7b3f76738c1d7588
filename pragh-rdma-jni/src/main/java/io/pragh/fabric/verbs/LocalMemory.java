package io.pragh.fabric.verbs;

import io.pragh.address.Address;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.Region;
import io.pragh.memory.ChunkedRegion;
import io.pragh.rdma.jni.NativeBuffer;
import io.pragh.rdma.jni.PraghVerbs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.agrona.DirectBuffer;

/**
 * A machine's registered memory: every chunk of its key, value and reclaim regions, registered for local write and
 * remote read, write and atomic access, plus a small probe area (one word per peer) used to learn the adapter's CAS
 * byte order. Also answers whether a local buffer lies in registered memory, so that operations on it need no bounce.
 */
final class LocalMemory implements AutoCloseable {
    private final Transport transport;
    private final MachineMemory memory;
    private final Transport.Registration[][] chunks = new Transport.Registration[Region.values().length][];
    private final NativeBuffer probeArea;
    private final Transport.Registration probe;
    private final Transport.Registration[] byAddress;
    private final long[] starts;

    LocalMemory(Transport transport, MachineMemory memory) {
        this.transport = transport;
        this.memory = memory;
        List<Transport.Registration> all = new ArrayList<>();
        NativeBuffer area = null;
        Transport.Registration probeRegistration = null;
        try {
            for (Region r : Region.values()) {
                ChunkedRegion region = memory.region(r);
                Transport.Registration[] regs = new Transport.Registration[region.chunkCount()];
                for (int c = 0; c < regs.length; c++) {
                    regs[c] = transport.register(region.chunk(c).addressOffset(), region.chunkBytes(),
                        PraghVerbs.ACCESS_ALL);
                    all.add(regs[c]);
                }
                chunks[r.ordinal()] = regs;
            }
            area = NativeBuffer.allocate(Address.MAX_MACHINES * Long.BYTES);
            probeRegistration = transport.register(area.address(), area.size(), PraghVerbs.ACCESS_ALL);
        } catch (RuntimeException e) {
            all.forEach(transport::deregister); // a half-registered machine would pin memory for nothing
            if (area != null) {
                area.close();
            }
            throw e;
        }
        this.probeArea = area;
        this.probe = probeRegistration;
        all.add(probe);
        this.byAddress = all.toArray(new Transport.Registration[0]);
        Arrays.sort(byAddress, Comparator.comparingLong(Transport.Registration::address));
        this.starts = Arrays.stream(byAddress).mapToLong(Transport.Registration::address).toArray();
    }

    MachineMemory memory() {
        return memory;
    }

    Transport.Registration chunk(Region region, int index) {
        return chunks[region.ordinal()][index];
    }

    /** The registration holding {@code [address, address + length)}, or null: then the data must be bounced. */
    Transport.Registration find(long address, int length) {
        int i = Arrays.binarySearch(starts, address);
        if (i < 0) {
            i = -i - 2; // the last registration starting before the address
        }
        if (i < 0) {
            return null;
        }
        Transport.Registration r = byAddress[i];
        return r.contains(address, length) ? r : null;
    }

    /**
     * The registration holding {@code length} bytes of {@code buffer} at {@code offset}, or null when they are on the
     * heap or outside registered memory (then they must be bounced).
     */
    Transport.Registration find(DirectBuffer buffer, int offset, int length) {
        if (buffer.byteArray() != null) {
            return null;
        }
        if (offset < 0 || length < 0 || (long) offset + length > buffer.capacity()) {
            throw new IndexOutOfBoundsException("local buffer of " + buffer.capacity() + " bytes cannot hold "
                + length + " bytes at " + offset);
        }
        return find(buffer.addressOffset() + offset, length);
    }

    /** The probe word a machine uses when it measures its adapter against this memory. */
    long probeWordAddress(int prober) {
        return probe.address() + (long) prober * Long.BYTES;
    }

    Transport.Registration probe() {
        return probe;
    }

    /** Plain access to a probe word of this machine; the probe's NIC operations are coherent with these. */
    void putProbeWord(int prober, long value) {
        probeArea.view().putLongVolatile(prober * Long.BYTES, value);
    }

    long getProbeWord(int prober) {
        return probeArea.view().getLongVolatile(prober * Long.BYTES);
    }

    @Override
    public void close() {
        for (Transport.Registration r : byAddress) {
            transport.deregister(r);
        }
        probeArea.close();
    }
}
