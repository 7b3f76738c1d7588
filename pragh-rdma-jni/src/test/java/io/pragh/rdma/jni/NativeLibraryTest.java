package io.pragh.rdma.jni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class NativeLibraryTest {
    @Test
    void theLibraryBuiltByMavenLoadsAndHasTheExpectedVersion() throws Exception {
        NativeLibrary.Status status = NativeLibraryAssumptions.requireBuiltLibrary();
        Path built = NativeLibraryAssumptions.BUILD_OUTPUT.resolve(NativeLibrary.FILE_NAME).toRealPath();
        assertTrue(Files.isSameFile(built, Path.of(status.path())), "loaded " + status.path() + ", built " + built);
        assertEquals(PraghVerbs.EXPECTED_NATIVE_VERSION, status.nativeVersion());
        assertEquals(PraghVerbs.EXPECTED_NATIVE_VERSION, PraghVerbs.nativeVersion());
    }

    @Test
    void loadingIsDoneOnceAndRemembered() {
        NativeLibraryAssumptions.requireBuiltLibrary();
        assertSame(NativeLibrary.status(), NativeLibrary.status());
    }

    @Test
    void nativeBuffersAreZeroedAlignedAndFreedExactlyOnce() {
        NativeLibraryAssumptions.requireBuiltLibrary();
        int before = PraghVerbs.liveHandles();
        try (NativeBuffer b = NativeBuffer.allocate(1000)) {
            assertEquals(1000, b.size());
            assertEquals(0, b.address() % 64, "64-byte aligned");
            for (int i = 0; i < 1000; i += 8) {
                assertEquals(0, b.view().getByte(i), "zeroed at " + i);
            }
            b.view().putLong(992, 7L);
            assertEquals(before + 1, PraghVerbs.liveHandles());
        }
        assertEquals(before, PraghVerbs.liveHandles(), "closing frees the handle");
    }
}
