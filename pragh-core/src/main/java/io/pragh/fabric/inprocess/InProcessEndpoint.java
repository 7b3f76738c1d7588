package io.pragh.fabric.inprocess;

import io.pragh.fabric.Endpoint;
import io.pragh.fabric.FabricException;
import io.pragh.fabric.FabricStats;
import io.pragh.fabric.MachineMemory;
import io.pragh.fabric.MessageHandler;
import io.pragh.fabric.OpBatch;
import io.pragh.fabric.Region;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
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
    private final LinkedBlockingQueue<Envelope> inbox = new LinkedBlockingQueue<>();
    private final Thread delivery;
    private volatile boolean running = true;

    InProcessEndpoint(InProcessFabric fabric, int machine, MachineMemory memory, MessageHandler handler) {
        this.fabric = fabric;
        this.machine = machine;
        this.memory = memory;
        this.handler = handler;
        this.delivery = new Thread(this::deliverLoop, "pragh-m" + machine + "-inbox");
        this.delivery.setDaemon(true);
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
            Envelope e;
            try {
                e = inbox.poll(100, TimeUnit.MILLISECONDS);
            } catch (InterruptedException ie) {
                return;
            }
            if (e == null) {
                continue;
            }
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
        peer.inbox.add(new Envelope(machine, copy));
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
