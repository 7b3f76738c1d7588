package io.pragh.rdma.jni;

/**
 * Pragh's own entry points into {@code libdisni.so}: what DiSNI 2.1 lacks. Handles (queue pairs, completion queues,
 * protection domains, rdma_cm ids) are the object ids DiSNI's {@code NatObject.getObjId()} returns, since one
 * library issues both; a handle that is stale, made up or of the wrong type raises IllegalArgumentException, never
 * a crash. Load the library through {@link NativeLibrary} before calling anything here.
 *
 * <pre>{@code
 * if (NativeLibrary.status().loaded()) {
 *     long mr = PraghVerbs.registerMemory(pd, address, length, PraghVerbs.ACCESS_ALL);
 *     int rkey = (int) (PraghVerbs.memoryKeys(mr) >>> 32);
 * }
 * }</pre>
 */
public final class PraghVerbs {
    /** The version of the entry points below; must equal the library's {@link #nativeVersion()}. */
    public static final int EXPECTED_NATIVE_VERSION = 1;

    public static final int ACCESS_LOCAL_WRITE = 1;
    public static final int ACCESS_REMOTE_WRITE = 2;
    public static final int ACCESS_REMOTE_READ = 4;
    public static final int ACCESS_REMOTE_ATOMIC = 8;
    /** Local write plus remote read, write and atomic access: how Pragh registers every region chunk. */
    public static final int ACCESS_ALL = ACCESS_LOCAL_WRITE | ACCESS_REMOTE_WRITE | ACCESS_REMOTE_READ
        | ACCESS_REMOTE_ATOMIC;

    /** {@code enum ibv_atomic_cap}: what {@link #atomicCapability} returns. */
    public static final int ATOMIC_NONE = 0;
    public static final int ATOMIC_HCA = 1;
    public static final int ATOMIC_GLOB = 2;

    private PraghVerbs() {
    }

    /** Version of Pragh's entry points in the loaded library. */
    public static native int nativeVersion();

    /** File the library was loaded from. */
    public static native String libraryPath();

    /** Whether the library exports a symbol: lets a test prove every DiSNI entry point is there. */
    public static native boolean exportsSymbol(String name);

    /** Live native handles of every kind; tests use it to prove failed calls leak nothing. */
    public static native int liveHandles();

    /** Names of the struct sizes, field offsets and constants of {@link #layoutValues()}, index by index. */
    public static native String[] layoutNames();

    public static native int[] layoutValues();

    /** Names of the RDMA devices; throws VerbsException (errno ENOSYS without kernel support) when it cannot list. */
    public static native String[] deviceNames();

    /** Firmware, ports and atomic capability of a device, for {@code ./pragh doctor}. */
    public static native String describeDevice(String name);

    /** How many ports of the device are ACTIVE. */
    public static native int activePorts(String name);

    /** {@code ibv_device_attr.atomic_cap} of an open device context handle: {@link #ATOMIC_NONE}, HCA or GLOB. */
    public static native int atomicCapability(long context);

    /** Registers memory with the given access bits (see {@link #ACCESS_ALL}); returns the memory region handle. */
    public static native long registerMemory(long pd, long address, long length, int access);

    /** The keys of a memory region: rkey in the high 32 bits, lkey in the low 32. */
    public static native long memoryKeys(long mr);

    public static native void deregisterMemory(long mr);

    /** Allocates a zeroed, 64-byte aligned native buffer whose bounds the library checks; returns its handle. */
    public static native long allocateBuffer(int bytes);

    public static native long bufferAddress(long buffer);

    public static native int bufferSize(long buffer);

    public static native void freeBuffer(long buffer);

    /**
     * Posts work descriptors {@code [first, first + count)} of a native buffer (see {@link WorkRequest}); consecutive
     * descriptors for one queue pair go out as one chain. Returns {@code count}, or {@code -(posted + 1)} when the
     * provider refused one: {@code posted} earlier descriptors went out and will complete, {@link #lastPostErrno()}
     * says why. A malformed descriptor raises IllegalArgumentException before anything is posted.
     */
    public static native int postSend(long descriptors, int first, int count);

    /** Posts receive descriptors (opcode {@link WorkRequest#RECV}); same return convention as {@link #postSend}. */
    public static native int postRecv(long descriptors, int first, int count);

    /** The errno of this thread's last refused post. */
    public static native int lastPostErrno();

    /** Reaps up to {@code max} completions into a native buffer of {@link Completion} records; returns how many. */
    public static native int pollCompletions(long cq, long completions, int max);

    public static native String errnoText(int errno);

    /** {@code ibv_wc_status_str} of a completion status. */
    public static native String completionStatusText(int status);

    /** The private data an incoming connect request carried, or null. */
    public static native byte[] connectRequestData(long cmId);

    /** The status field of the last rdma_cm event this thread received (non-zero for rejections and errors). */
    public static native int lastCmEventStatus();
}
