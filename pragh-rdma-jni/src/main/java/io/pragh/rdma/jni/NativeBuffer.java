package io.pragh.rdma.jni;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Memory allocated by the native library, which therefore knows its bounds: work descriptors and completions live
 * here so that C never has to trust an address from Java on the hot path. The {@link #view()} writes in native byte
 * order, which is what C reads.
 *
 * <pre>{@code
 * try (NativeBuffer descriptors = NativeBuffer.allocate(64 * WorkRequest.SIZE)) {
 *     new WorkRequest().wrap(descriptors, 0).read(qp, 7L, local, lkey, remote, rkey, 64, true);
 * }
 * }</pre>
 */
public final class NativeBuffer implements AutoCloseable {
    private final long handle;
    private final long address;
    private final int size;
    private final UnsafeBuffer view;
    private boolean closed;

    private NativeBuffer(long handle) {
        this.handle = handle;
        this.address = PraghVerbs.bufferAddress(handle);
        this.size = PraghVerbs.bufferSize(handle);
        this.view = new UnsafeBuffer(address, size);
    }

    /** A zeroed buffer of {@code bytes}, 64-byte aligned. */
    public static NativeBuffer allocate(int bytes) {
        NativeLibrary.require();
        return new NativeBuffer(PraghVerbs.allocateBuffer(bytes));
    }

    public long handle() {
        return handle;
    }

    public long address() {
        return address;
    }

    public int size() {
        return size;
    }

    public UnsafeBuffer view() {
        return view;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            view.wrap(0, 0);
            PraghVerbs.freeBuffer(handle);
        }
    }
}
