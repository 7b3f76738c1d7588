package io.pragh.fabric.inprocess;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import io.pragh.memory.RecordExtent;
import io.pragh.runtime.SpinYieldPark;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** One machine on the in-process fabric; its delivery thread is the only thread that runs its message handler. */
final class InProcessEndpoint implements Endpoint {
    private static final Logger LOG = LoggerFactory.getLogger(InProcessEndpoint.class);

    private record Envelope(int from, byte[] bytes) {
    }

    private final InProcessFabric fabric;
    private final int machine;
    private final MachineMemory memory;
    private final MessageHandler handler;
    private final FabricStats stats = new FabricStats();
    /** Many senders, one delivery thread: a lock-free queue, and the thread waits by {@link SpinYieldPark}. */
    private final ManyToOneConcurrentLinkedQueue<Envelope> inbox = new ManyToOneConcurrentLinkedQueue<>();
    private final Thread delivery;
    private final SpinYieldPark idle;
    private volatile boolean running = true;

    InProcessEndpoint(InProcessFabric fabric, int machine, MachineMemory memory, MessageHandler handler) {
        this.fabric = fabric;
        this.machine = machine;
        this.memory = memory;
        this.handler = handler;
        this.delivery = new Thread(this::deliverLoop, "pragh-m" + machine + "-inbox");
        this.delivery.setDaemon(true);
        this.idle = new SpinYieldPark(delivery);
    }

    void start() {
        delivery.start();
    }

    /** Stops delivery; a message being handled is handled to the end ({@link #awaitStopped} waits for it). */
    void stop() {
        running = false;
        delivery.interrupt();
    }

    /**
     * Waits up to {@code millis} for the delivery thread to end: until then it may run the handler, which touches
     * the machine's memory, so the machine must not free it before.
     *
     * @return whether it has ended
     */
    boolean awaitStopped(long millis) {
        if (Thread.currentThread() == delivery) {
            return false;
        }
        try {
            delivery.join(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return !delivery.isAlive();
    }

    MachineMemory memory() {
        return memory;
    }

    private void deliverLoop() {
        UnsafeBuffer view = new UnsafeBuffer(new byte[0]);
        while (running) {
            Envelope e = inbox.poll();
            if (e == null) {
                idle.idle(inbox::isEmpty);
                continue;
            }
            idle.reset();
            view.wrap(e.bytes());
            try {
                handler.onMessage(e.from(), view, 0, e.bytes().length);
            } catch (RuntimeException ex) {
                // A handler bug must not kill delivery for every other sender; the handler reports its own errors.
                // One cut short by the fabric closing under it is no bug.
                if (running && !fabric.isClosed()) {
                    LOG.error("machine {} message handler failed", machine, ex);
                }
            }
        }
    }

    @Override
    public int machine() {
        return machine;
    }

    @Override
    public int machineCount() {
        return fabric.machineCount();
    }

    @Override
    public FabricStats stats() {
        return stats;
    }

    @Override
    public void read(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset, int length) {
        InProcessEndpoint peer = fabric.peer(machine, target);
        InProcessFabric.Ops.read(peer.memory.region(region), offset, dst, dstOffset, length);
        fabric.chargeLatency();
        stats.remoteRead(length);
    }

    /** Copies only the record's extent, as a local copy of it does. */
    @Override
    public void readRecord(int target, Region region, long offset, MutableDirectBuffer dst, int dstOffset,
                           int maxLength, RecordExtent extent) {
        InProcessEndpoint peer = fabric.peer(machine, target);
        int copied = InProcessFabric.Ops.readRecord(peer.memory.region(region), offset, dst, dstOffset, maxLength,
            extent);
        fabric.chargeLatency();
        stats.remoteRead(copied);
    }

    @Override
    public void write(int target, Region region, long offset, DirectBuffer src, int srcOffset, int length) {
        InProcessEndpoint peer = fabric.peer(machine, target);
        InProcessFabric.Ops.write(peer.memory.region(region), offset, src, srcOffset, length);
        fabric.chargeLatency();
        stats.remoteWrite(length);
    }

    @Override
    public long compareAndSwap(int target, Region region, long offset, long expected, long desired) {
        InProcessEndpoint peer = fabric.peer(machine, target);
        long seen = InProcessFabric.Ops.cas(peer.memory.region(region), offset, expected, desired);
        fabric.chargeLatency();
        stats.remoteAtomic();
        return seen;
    }

    @Override
    public OpBatch newBatch(int capacity) {
        return new InProcessOpBatch(this, capacity);
    }

    InProcessFabric fabric() {
        return fabric;
    }

    @Override
    public void send(int target, DirectBuffer message, int offset, int length) {
        InProcessEndpoint peer = fabric.peer(machine, target);
        if (!peer.running) {
            throw new FabricException("machine " + target + " is stopped", true);
        }
        byte[] copy = new byte[length];
        message.getBytes(offset, copy);
        fabric.chargeLatency();
        stats.message(length);
        peer.inbox.offer(new Envelope(machine, copy));
        peer.idle.signal();
    }

    @Override
    public boolean cpuAtomicsCoherent() {
        return fabric.cpuAtomicsCoherent();
    }

    @Override
    public boolean isReachable(int target) {
        return fabric.reachable(machine, target);
    }
}
