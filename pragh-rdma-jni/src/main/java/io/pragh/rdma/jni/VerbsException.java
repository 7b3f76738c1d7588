package io.pragh.rdma.jni;

import io.pragh.PraghException;

/**
 * A verbs or rdma_cm call in the native library failed; {@link #errno()} is the C error number.
 *
 * <pre>{@code
 * try { PraghVerbs.deviceNames(); } catch (VerbsException e) { if (e.errno() == VerbsException.ENOSYS) ... }
 * }</pre>
 */
public class VerbsException extends PraghException {
    private static final long serialVersionUID = 1L;
    /** "Function not implemented": libibverbs found no kernel RDMA support. */
    public static final int ENOSYS = 38;
    /** "No such device". */
    public static final int ENODEV = 19;

    private final int errno;

    /** Called from C (errors.c) with the formatted message. */
    public VerbsException(String message, int errno) {
        super(message);
        this.errno = errno;
    }

    public int errno() {
        return errno;
    }
}
