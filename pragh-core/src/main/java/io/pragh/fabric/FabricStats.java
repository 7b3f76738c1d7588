package io.pragh.fabric;

import java.util.concurrent.atomic.LongAdder;

/**
 * Local and remote operation and byte counts of one machine. The remote access rate, the share of key and value
 * accesses that crossed the fabric, is the paper's key figure. Fabrics count remote operations; the store counts
 * the local ones it serves from its own memory. LongAdder keeps counting off the hot path's critical cache lines.
 */
public final class FabricStats {
    private final LongAdder localOps = new LongAdder();
    private final LongAdder localBytes = new LongAdder();
    private final LongAdder remoteReads = new LongAdder();
    private final LongAdder remoteReadBytes = new LongAdder();
    private final LongAdder remoteWrites = new LongAdder();
    private final LongAdder remoteWriteBytes = new LongAdder();
    private final LongAdder remoteAtomics = new LongAdder();
    private final LongAdder messages = new LongAdder();
    private final LongAdder messageBytes = new LongAdder();

    public void local(int bytes) {
        localOps.increment();
        localBytes.add(bytes);
    }

    public void remoteRead(int bytes) {
        remoteReads.increment();
        remoteReadBytes.add(bytes);
    }

    public void remoteWrite(int bytes) {
        remoteWrites.increment();
        remoteWriteBytes.add(bytes);
    }

    public void remoteAtomic() {
        remoteAtomics.increment();
    }

    public void message(int bytes) {
        messages.increment();
        messageBytes.add(bytes);
    }

    public Snapshot snapshot() {
        return new Snapshot(localOps.sum(), localBytes.sum(), remoteReads.sum(), remoteReadBytes.sum(),
            remoteWrites.sum(), remoteWriteBytes.sum(), remoteAtomics.sum(), messages.sum(), messageBytes.sum());
    }

    public void reset() {
        localOps.reset();
        localBytes.reset();
        remoteReads.reset();
        remoteReadBytes.reset();
        remoteWrites.reset();
        remoteWriteBytes.reset();
        remoteAtomics.reset();
        messages.reset();
        messageBytes.reset();
    }

    /** An immutable reading; {@link #plus} sums machines, {@link #minus} gives the counts of an interval. */
    public record Snapshot(long localOps, long localBytes, long remoteReads, long remoteReadBytes, long remoteWrites,
                           long remoteWriteBytes, long remoteAtomics, long messages, long messageBytes) {
        public static final Snapshot ZERO = new Snapshot(0, 0, 0, 0, 0, 0, 0, 0, 0);

        public long remoteOps() {
            return remoteReads + remoteWrites + remoteAtomics;
        }

        /** Remote share of all one-sided accesses; 0 when nothing was accessed. */
        public double remoteAccessRate() {
            long total = remoteOps() + localOps;
            return total == 0 ? 0.0 : (double) remoteOps() / total;
        }

        public Snapshot plus(Snapshot o) {
            return new Snapshot(localOps + o.localOps, localBytes + o.localBytes, remoteReads + o.remoteReads,
                remoteReadBytes + o.remoteReadBytes, remoteWrites + o.remoteWrites,
                remoteWriteBytes + o.remoteWriteBytes, remoteAtomics + o.remoteAtomics, messages + o.messages,
                messageBytes + o.messageBytes);
        }

        public Snapshot minus(Snapshot o) {
            return new Snapshot(localOps - o.localOps, localBytes - o.localBytes, remoteReads - o.remoteReads,
                remoteReadBytes - o.remoteReadBytes, remoteWrites - o.remoteWrites,
                remoteWriteBytes - o.remoteWriteBytes, remoteAtomics - o.remoteAtomics, messages - o.messages,
                messageBytes - o.messageBytes);
        }
    }
}
