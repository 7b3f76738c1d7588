package io.pragh.fabric.verbs;

import io.pragh.rdma.jni.NativeBuffer;
import io.pragh.rdma.jni.PraghVerbs;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Registered bounce memory of one posting thread: where the NIC reads a WRITE whose source is on the Java heap,
 * writes a READ for a heap destination, and writes the witnessed word of a CAS. A bump allocator: the owning
 * {@link Lane} resets it only when no signalled operation that could still touch it is outstanding.
 */
final class ScratchArena implements AutoCloseable {
    private static final int ALIGNMENT = 8;

    private final Transport transport;
    private final NativeBuffer memory;
    private final Transport.Registration registration;
    private int used;

    ScratchArena(Transport transport, int bytes) {
        this.transport = transport;
        this.memory = NativeBuffer.allocate(bytes);
        try {
            this.registration = transport.register(memory.address(), memory.size(), PraghVerbs.ACCESS_LOCAL_WRITE);
        } catch (RuntimeException e) {
            memory.close();
            throw e;
        }
    }

    /** Offset of {@code bytes} fresh bytes, or -1 when the arena is full. */
    int allocate(int bytes) {
        int start = (used + ALIGNMENT - 1) & -ALIGNMENT;
        if (bytes < 0 || start + (long) bytes > memory.size()) {
            return -1;
        }
        used = start + bytes;
        return start;
    }

    void reset() {
        used = 0;
    }

    boolean isEmpty() {
        return used == 0;
    }

    int capacity() {
        return memory.size();
    }

    long address(int offset) {
        return memory.address() + offset;
    }

    int lkey() {
        return registration.lkey();
    }

    UnsafeBuffer view() {
        return memory.view();
    }

    @Override
    public void close() {
        try {
            transport.deregister(registration);
        } finally {
            memory.close();
        }
    }
}
