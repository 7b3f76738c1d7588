package io.pragh.fabric.verbs;

import io.pragh.fabric.Region;

/**
 * A peer's registered memory as this machine sees it: for each region its chunk geometry and, per chunk, the
 * address and rkey a one-sided operation names. Built from the region table the peer sent ({@link RegionTable}).
 * Every translation checks the access the same way the peer's own ChunkedRegion would: inside the region, inside
 * one chunk, and 8-byte aligned for a CAS.
 */
final class RemoteMemory {
    /** One region of the peer. */
    record RegionKeys(int chunkShift, long capacity, long[] addresses, int[] rkeys) {
    }

    private final int machine;
    private final RegionKeys[] regions;
    private final long probeAddress;
    private final int probeRkey;

    RemoteMemory(int machine, RegionKeys[] regions, long probeAddress, int probeRkey) {
        if (regions.length != Region.values().length) {
            throw new IllegalArgumentException("machine " + machine + " described " + regions.length + " regions, not "
                + Region.values().length);
        }
        this.machine = machine;
        this.regions = regions.clone();
        this.probeAddress = probeAddress;
        this.probeRkey = probeRkey;
    }

    int machine() {
        return machine;
    }

    /** The remote address of {@code [offset, offset + length)} in a region, after checking the access. */
    long address(Region region, long offset, int length) {
        RegionKeys r = regions[region.ordinal()];
        if (offset < 0 || length < 0 || offset + length > r.capacity()) {
            throw new IndexOutOfBoundsException("access of " + length + " bytes at offset " + offset
                + " is outside region " + region + " of machine " + machine + " (" + r.capacity() + " bytes)");
        }
        int chunk = (int) (offset >>> r.chunkShift());
        if (length > 0 && chunk != (int) ((offset + length - 1) >>> r.chunkShift())) {
            throw new IndexOutOfBoundsException("access of " + length + " bytes at offset " + offset
                + " crosses a chunk boundary of region " + region + " of machine " + machine + " (chunks of "
                + (1L << r.chunkShift()) + " bytes)");
        }
        return r.addresses()[chunk] + (offset & ((1L << r.chunkShift()) - 1));
    }

    /** Like {@link #address} for an 8-byte atomic, which must also be aligned. */
    long atomicAddress(Region region, long offset) {
        long address = address(region, offset, Long.BYTES);
        if ((offset & 7) != 0) {
            throw new IllegalArgumentException("atomic access at offset " + offset + " of region " + region
                + " of machine " + machine + " is not 8-byte aligned");
        }
        return address;
    }

    int rkey(Region region, long offset) {
        RegionKeys r = regions[region.ordinal()];
        return r.rkeys()[(int) (offset >>> r.chunkShift())];
    }

    /** The probe word reserved for {@code prober} in this machine's probe area. */
    long probeAddress(int prober) {
        return probeAddress + (long) prober * Long.BYTES;
    }

    int probeRkey() {
        return probeRkey;
    }
}
