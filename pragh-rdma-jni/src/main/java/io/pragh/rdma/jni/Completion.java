package io.pragh.rdma.jni;

import java.util.Map;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Flyweight over one 32-byte completion record that {@link PraghVerbs#pollCompletions} writes into a
 * {@link NativeBuffer}; mirrors {@code pragh_completion} in pragh_verbs.c.
 *
 * <pre>{@code
 * int n = PraghVerbs.pollCompletions(cq, completions.handle(), 32);
 * for (int i = 0; i < n; i++) { Completion c = completion.wrap(completions, i); if (!c.succeeded()) ... }
 * }</pre>
 */
public final class Completion {
    public static final int SIZE = 32;
    public static final int WR_ID_OFFSET = 0;
    public static final int STATUS_OFFSET = 8;
    public static final int OPCODE_OFFSET = 12;
    public static final int BYTE_LENGTH_OFFSET = 16;
    public static final int VENDOR_ERROR_OFFSET = 20;
    public static final int QP_NUMBER_OFFSET = 24;

    /** {@code IBV_WC_SUCCESS}. */
    public static final int SUCCESS = 0;
    /** {@code IBV_WC_WR_FLUSH_ERR}: the QP went into error before this request ran. */
    public static final int FLUSHED = 5;
    /** {@code IBV_WC_RECV}: the completion of a receive. */
    public static final int OPCODE_RECV = 128;

    private UnsafeBuffer buffer;
    private int offset;

    public Completion wrap(NativeBuffer completions, int index) {
        if (index < 0 || (long) (index + 1) * SIZE > completions.size()) {
            throw new IndexOutOfBoundsException("completion " + index + " is outside a buffer of "
                + completions.size() / SIZE + " completions");
        }
        this.buffer = completions.view();
        this.offset = index * SIZE;
        return this;
    }

    public long wrId() {
        return buffer.getLong(offset + WR_ID_OFFSET);
    }

    public int status() {
        return buffer.getInt(offset + STATUS_OFFSET);
    }

    public boolean succeeded() {
        return status() == SUCCESS;
    }

    public int opcode() {
        return buffer.getInt(offset + OPCODE_OFFSET);
    }

    public int byteLength() {
        return buffer.getInt(offset + BYTE_LENGTH_OFFSET);
    }

    public int vendorError() {
        return buffer.getInt(offset + VENDOR_ERROR_OFFSET);
    }

    public int qpNumber() {
        return buffer.getInt(offset + QP_NUMBER_OFFSET);
    }

    static void checkAgainstNative(Map<String, Integer> layout) {
        WorkRequest.expect(layout, "pragh_completion.size", SIZE);
        WorkRequest.expect(layout, "pragh_completion.wr_id", WR_ID_OFFSET);
        WorkRequest.expect(layout, "pragh_completion.status", STATUS_OFFSET);
        WorkRequest.expect(layout, "pragh_completion.opcode", OPCODE_OFFSET);
        WorkRequest.expect(layout, "pragh_completion.byte_len", BYTE_LENGTH_OFFSET);
        WorkRequest.expect(layout, "pragh_completion.vendor_err", VENDOR_ERROR_OFFSET);
        WorkRequest.expect(layout, "pragh_completion.qp_num", QP_NUMBER_OFFSET);
        WorkRequest.expect(layout, "IBV_WC_SUCCESS", SUCCESS);
        WorkRequest.expect(layout, "IBV_WC_WR_FLUSH_ERR", FLUSHED);
        WorkRequest.expect(layout, "IBV_WC_RECV", OPCODE_RECV);
    }
}
