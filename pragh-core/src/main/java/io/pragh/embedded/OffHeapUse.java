package io.pragh.embedded;

/**
 * Off-heap memory of one machine or a sum of machines, which no JVM memory pool reports (the regions come from
 * {@code Unsafe.allocateMemory}). Reserved memory is address space: it becomes resident only where touched, so an
 * empty machine is small whatever it reserved. Used memory is what data holds in it.
 *
 * <pre>{@code
 * OffHeapUse use = cluster.offHeapUse();
 * double bytesPerEdge = (double) (heapUsed + use.usedBytes()) / edges;
 * }</pre>
 *
 * @param reservedBytes every region's capacity: keys, values, reclaim rings and the location cache
 * @param keyBytes      key slots holding a key (16 bytes each)
 * @param valueBytes    value records in use, headers and size-class rounding included
 * @param garbageBytes  superseded value records still waiting for their reclaim lease
 */
public record OffHeapUse(long reservedBytes, long keyBytes, long valueBytes, long garbageBytes) {
    public static final OffHeapUse NONE = new OffHeapUse(0, 0, 0, 0);

    /** Keys, values and garbage: what data holds now. */
    public long usedBytes() {
        return keyBytes + valueBytes + garbageBytes;
    }

    public OffHeapUse plus(OffHeapUse o) {
        return new OffHeapUse(reservedBytes + o.reservedBytes, keyBytes + o.keyBytes, valueBytes + o.valueBytes,
            garbageBytes + o.garbageBytes);
    }
}
