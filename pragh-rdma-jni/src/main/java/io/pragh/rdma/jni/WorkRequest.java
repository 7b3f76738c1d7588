package io.pragh.rdma.jni;

import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Flyweight over one 64-byte work descriptor in a {@link NativeBuffer}, which {@link PraghVerbs#postSend} turns into
 * an {@code ibv_send_wr} (READ, WRITE, compare-and-swap, SEND) or {@link PraghVerbs#postRecv} into an
 * {@code ibv_recv_wr}. The offsets mirror {@code pragh_work} in pragh_verbs.c; {@link #checkAgainstNative()} proves
 * it. No allocation: wrap, set, move on.
 *
 * <pre>{@code
 * WorkRequest wr = new WorkRequest();
 * wr.wrap(descriptors, 0).compareAndSwap(qp, wrId, resultAddress, lkey, remoteAddress, rkey, expected, desired, true);
 * PraghVerbs.postSend(descriptors.handle(), 0, 1);
 * }</pre>
 */
public final class WorkRequest {
    public static final int SIZE = 64;
    public static final int WR_ID_OFFSET = 0;
    public static final int QP_OFFSET = 8;
    public static final int LOCAL_ADDRESS_OFFSET = 16;
    public static final int REMOTE_ADDRESS_OFFSET = 24;
    public static final int COMPARE_OFFSET = 32;
    public static final int SWAP_OFFSET = 40;
    public static final int LENGTH_OFFSET = 48;
    public static final int LKEY_OFFSET = 52;
    public static final int RKEY_OFFSET = 56;
    public static final int OPCODE_OFFSET = 60;
    public static final int FLAGS_OFFSET = 61;

    public static final byte READ = 1;
    public static final byte WRITE = 2;
    public static final byte CAS = 3;
    public static final byte SEND = 4;
    public static final byte RECV = 5;

    /** The request produces a completion of its own; without it, a later signalled one on the QP implies it. */
    public static final byte SIGNALLED = 1;
    /** The request waits for earlier READs and atomics on the QP to finish first. */
    public static final byte FENCE = 2;

    private UnsafeBuffer buffer;
    private int offset;

    /** Points this flyweight at descriptor {@code index} of a buffer. */
    public WorkRequest wrap(NativeBuffer descriptors, int index) {
        if (index < 0 || (long) (index + 1) * SIZE > descriptors.size()) {
            throw new IndexOutOfBoundsException("descriptor " + index + " is outside a buffer of "
                + descriptors.size() / SIZE + " descriptors");
        }
        this.buffer = descriptors.view();
        this.offset = index * SIZE;
        return this;
    }

    private WorkRequest common(byte opcode, long qp, long wrId, long local, int lkey, int length, boolean signalled) {
        buffer.putLong(offset + WR_ID_OFFSET, wrId);
        buffer.putLong(offset + QP_OFFSET, qp);
        buffer.putLong(offset + LOCAL_ADDRESS_OFFSET, local);
        buffer.putInt(offset + LENGTH_OFFSET, length);
        buffer.putInt(offset + LKEY_OFFSET, lkey);
        buffer.putByte(offset + OPCODE_OFFSET, opcode);
        buffer.putByte(offset + FLAGS_OFFSET, signalled ? SIGNALLED : 0);
        return this;
    }

    /** RDMA READ of {@code length} bytes at {@code remote} into registered local memory. */
    public WorkRequest read(long qp, long wrId, long local, int lkey, long remote, int rkey, int length,
                            boolean signalled) {
        return oneSided(READ, qp, wrId, local, lkey, remote, rkey, length, signalled);
    }

    /** RDMA WRITE of {@code length} bytes from registered local memory to {@code remote}. */
    public WorkRequest write(long qp, long wrId, long local, int lkey, long remote, int rkey, int length,
                             boolean signalled) {
        return oneSided(WRITE, qp, wrId, local, lkey, remote, rkey, length, signalled);
    }

    /** RDMA compare-and-swap of the 8-byte word at {@code remote}; the NIC writes the witnessed value to {@code local}. */
    public WorkRequest compareAndSwap(long qp, long wrId, long local, int lkey, long remote, int rkey, long expected,
                                      long desired, boolean signalled) {
        oneSided(CAS, qp, wrId, local, lkey, remote, rkey, 8, signalled);
        buffer.putLong(offset + COMPARE_OFFSET, expected);
        buffer.putLong(offset + SWAP_OFFSET, desired);
        return this;
    }

    private WorkRequest oneSided(byte opcode, long qp, long wrId, long local, int lkey, long remote, int rkey,
                                 int length, boolean signalled) {
        common(opcode, qp, wrId, local, lkey, length, signalled);
        buffer.putLong(offset + REMOTE_ADDRESS_OFFSET, remote);
        buffer.putInt(offset + RKEY_OFFSET, rkey);
        return this;
    }

    /** Two-sided SEND of {@code length} bytes from registered local memory. */
    public WorkRequest send(long qp, long wrId, long local, int lkey, int length, boolean signalled) {
        return common(SEND, qp, wrId, local, lkey, length, signalled);
    }

    /** A receive buffer of {@code length} bytes. */
    public WorkRequest receive(long qp, long wrId, long local, int lkey, int length) {
        return common(RECV, qp, wrId, local, lkey, length, true);
    }

    /** Adds {@link #FENCE} to the current descriptor. */
    public WorkRequest fence() {
        buffer.putByte(offset + FLAGS_OFFSET, (byte) (buffer.getByte(offset + FLAGS_OFFSET) | FENCE));
        return this;
    }

    public byte opcode() {
        return buffer.getByte(offset + OPCODE_OFFSET);
    }

    public long wrId() {
        return buffer.getLong(offset + WR_ID_OFFSET);
    }

    /**
     * Compares every offset and constant above with what the library was compiled with; throws IllegalStateException
     * naming the first difference. Fabrics call it once before posting anything.
     */
    public static void checkAgainstNative() {
        Map<String, Integer> layout = NativeLayout.query();
        expect(layout, "pragh_work.size", SIZE);
        expect(layout, "pragh_work.wr_id", WR_ID_OFFSET);
        expect(layout, "pragh_work.qp", QP_OFFSET);
        expect(layout, "pragh_work.local_addr", LOCAL_ADDRESS_OFFSET);
        expect(layout, "pragh_work.remote_addr", REMOTE_ADDRESS_OFFSET);
        expect(layout, "pragh_work.compare", COMPARE_OFFSET);
        expect(layout, "pragh_work.swap", SWAP_OFFSET);
        expect(layout, "pragh_work.length", LENGTH_OFFSET);
        expect(layout, "pragh_work.lkey", LKEY_OFFSET);
        expect(layout, "pragh_work.rkey", RKEY_OFFSET);
        expect(layout, "pragh_work.opcode", OPCODE_OFFSET);
        expect(layout, "pragh_work.flags", FLAGS_OFFSET);
        expect(layout, "PW_READ", READ);
        expect(layout, "PW_WRITE", WRITE);
        expect(layout, "PW_CAS", CAS);
        expect(layout, "PW_SEND", SEND);
        expect(layout, "PW_RECV", RECV);
        expect(layout, "PF_SIGNALLED", SIGNALLED);
        expect(layout, "PF_FENCE", FENCE);
        expect(layout, "IBV_ACCESS_LOCAL_WRITE", PraghVerbs.ACCESS_LOCAL_WRITE);
        expect(layout, "IBV_ACCESS_REMOTE_WRITE", PraghVerbs.ACCESS_REMOTE_WRITE);
        expect(layout, "IBV_ACCESS_REMOTE_READ", PraghVerbs.ACCESS_REMOTE_READ);
        expect(layout, "IBV_ACCESS_REMOTE_ATOMIC", PraghVerbs.ACCESS_REMOTE_ATOMIC);
        expect(layout, "IBV_ATOMIC_NONE", PraghVerbs.ATOMIC_NONE);
        expect(layout, "IBV_ATOMIC_HCA", PraghVerbs.ATOMIC_HCA);
        expect(layout, "IBV_ATOMIC_GLOB", PraghVerbs.ATOMIC_GLOB);
        Completion.checkAgainstNative(layout);
    }

    static void expect(Map<String, Integer> layout, String name, int javaValue) {
        int nativeValue = NativeLayout.value(layout, name);
        if (nativeValue != javaValue) {
            throw new IllegalStateException(name + " is " + nativeValue + " in the native library but " + javaValue
                + " on the Java side");
        }
    }
}
