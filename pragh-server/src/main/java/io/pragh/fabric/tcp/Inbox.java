package io.pragh.fabric.tcp;

import io.netty.buffer.ByteBuf;
import io.pragh.fabric.MessageHandler;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two-sided messages arriving at one machine: event loops copy each message into an off-heap many-to-one ring
 * (the sender's id is the record's type), and one delivery thread hands them to the {@link MessageHandler} in
 * arrival order, which keeps each sender's order since a sender's messages share one connection. When the ring is
 * full a connection stops reading ({@link #onStall}) and is resumed once the ring drained to half, so a slow
 * handler pushes back on senders through TCP instead of growing memory.
 */
final class Inbox implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Inbox.class);
    private static final int IDLE_SPINS = 100;
    private static final int IDLE_YIELDS = 10;
    private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final int machine;
    private final ManyToOneRingBuffer ring;
    private final ManyToOneConcurrentLinkedQueue<Runnable> stalled = new ManyToOneConcurrentLinkedQueue<>();
    private final Thread thread;
    private final org.agrona.concurrent.MessageHandler adapter = this::deliver;
    private volatile MessageHandler handler;
    private final AtomicLong stalls = new AtomicLong();
    private volatile boolean running = true;
    private volatile boolean parked;

    Inbox(int machine, int capacity) {
        this.machine = machine;
        this.ring = new ManyToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(capacity + RingBufferDescriptor.TRAILER_LENGTH)));
        this.thread = new Thread(this::run, "pragh-m" + machine + "-tcp-inbox");
        this.thread.setDaemon(true);
    }

    int maxMessageBytes() {
        return ring.maxMsgLength();
    }

    /** Starts delivery; messages that arrived before are delivered first. */
    void start(MessageHandler messageHandler) {
        this.handler = messageHandler;
        thread.start();
    }

    /** Event loop: copies a message in; false when the ring is full (call {@link #onStall} then). */
    boolean offer(int from, ByteBuf in, int index, int length) {
        int at = ring.tryClaim(from + 1, length);
        if (at == RingBuffer.INSUFFICIENT_CAPACITY) {
            return false;
        }
        ByteBufView.copy(in, index, ring.buffer(), at, length);
        ring.commit(at);
        // Dekker pair with run(): the claim above advanced the ring's tail, the delivery thread sets parked before
        // it looks at the tail, and the fence keeps this read of parked after our claim, so either it sees the
        // message or we see it parked and wake it.
        VarHandle.fullFence();
        if (parked) {
            LockSupport.unpark(thread);
        }
        return true;
    }

    /** Registers what to run (on the delivery thread) once the ring has room again. */
    void onStall(Runnable resume) {
        stalls.incrementAndGet();
        stalled.offer(resume);
    }

    /** How often a connection had to stop reading because the ring was full. */
    long stalls() {
        return stalls.get();
    }

    private void deliver(int typeId, org.agrona.MutableDirectBuffer buffer, int index, int length) {
        try {
            handler.onMessage(typeId - 1, buffer, index, length);
        } catch (RuntimeException e) {
            // A handler bug must not stop delivery for every other sender; the handler reports its own errors.
            LOG.warn("machine " + machine + ": message handler failed on a message from machine "
                + (typeId - 1), e);
        }
    }

    private void run() {
        int idle = 0;
        while (running) {
            int n = ring.read(adapter, 256);
            if (!stalled.isEmpty() && ring.size() <= ring.capacity() / 2) {
                Runnable r;
                while ((r = stalled.poll()) != null) {
                    r.run();
                }
            }
            if (n > 0) {
                idle = 0;
            } else if (++idle < IDLE_SPINS) {
                Thread.onSpinWait();
            } else if (idle < IDLE_SPINS + IDLE_YIELDS) {
                Thread.yield();
            } else {
                parked = true;
                if (ring.size() == 0 && stalled.isEmpty() && running) {
                    // Woken by offer(); the timeout only bounds how late close() is noticed.
                    LockSupport.parkNanos(this, PARK_NANOS);
                }
                parked = false;
            }
        }
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread);
        if (thread.isAlive() && Thread.currentThread() != thread) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(2));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
