package io.pragh.memory;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Linux transparent huge pages for a region's chunks: {@code madvise(MADV_HUGEPAGE)} over a chunk before its first
 * touch, so the kernel backs it with 2 MiB pages where it can. A key lookup and a location cache probe land at random
 * in hundreds of MiB per machine; on 4 KiB pages nearly every one misses the TLB and walks page tables that miss the
 * data caches too, and eight machines in one process multiply the span. The cost is residency: memory becomes
 * resident 2 MiB at a time, so a region written sparsely (hashed buckets) is resident sooner. Hence it is a choice
 * ({@code StoreConfig#hugePages}), taken by deployments sized for their data and by benchmarks, which pre-touch every
 * page anyway. Where the kernel offers no transparent huge pages ({@code never}, another OS) or libc cannot be called,
 * chunks keep 4 KiB pages and everything works as before; {@link #available} says which.
 *
 * <pre>{@code
 * if (HugePages.available()) {
 *     HugePages.advise(chunkAddress, chunkBytes); // chunkAddress 2 MiB-aligned for every page to be huge
 * }
 * }</pre>
 */
public final class HugePages {
    /** The size of a transparent huge page on x86-64 and arm64 (4 KiB base pages). */
    public static final int BYTES = 2 << 20;
    private static final int MADV_HUGEPAGE = 14;
    private static final Path MODE = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
    private static final Logger LOG = LoggerFactory.getLogger(HugePages.class);
    private static final String UNAVAILABLE = unavailability();

    private HugePages() {
    }

    /** Whether {@link #advise} can give a chunk huge pages in this process. */
    public static boolean available() {
        return UNAVAILABLE == null;
    }

    /** Why huge pages are not available here, or null when they are. */
    public static String unavailableBecause() {
        return UNAVAILABLE;
    }

    /**
     * Asks for huge pages over {@code [address, address + bytes)}, both multiples of 4 KiB; only whole 2 MiB-aligned
     * pages inside it can become huge. Pages touched before keep their size.
     *
     * @return whether the kernel took the advice (false when not {@link #available})
     */
    public static boolean advise(long address, long bytes) {
        if (!available()) {
            return false;
        }
        int result = LibC.madvise(new Pointer(address), bytes, MADV_HUGEPAGE);
        if (result != 0) {
            LOG.warn("madvise(MADV_HUGEPAGE) of {} bytes at {} failed (errno {}): the region keeps 4 KiB pages",
                bytes, Long.toHexString(address), Native.getLastError());
        }
        return result == 0;
    }

    private static String unavailability() {
        if (!Platform.isLinux()) {
            return "transparent huge pages are a Linux feature";
        }
        String mode;
        try {
            mode = Files.readString(MODE).trim();
        } catch (IOException e) {
            return "the kernel offers no transparent huge pages (" + MODE + " unreadable: " + e.getMessage() + ")";
        }
        if (!mode.contains("[always]") && !mode.contains("[madvise]")) {
            return "transparent huge pages are off (" + MODE + ": " + mode + ")";
        }
        try {
            LibC.touch(); // binds madvise now, not on the first advice
        } catch (LinkageError | RuntimeException e) {
            return "libc's madvise cannot be called through JNA (" + e + ")";
        }
        return null;
    }

    /** libc's {@code madvise}, bound once through JNA's direct mapping (no per-call reflection). */
    private static final class LibC {
        static {
            Native.register(LibC.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
        }

        static void touch() {
            // Initialising the class registers the native method; nothing else to do.
        }

        static native int madvise(Pointer address, long length, int advice);
    }
}
