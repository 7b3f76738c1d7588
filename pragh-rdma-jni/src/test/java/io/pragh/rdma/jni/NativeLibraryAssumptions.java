package io.pragh.rdma.jni;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * Tests that need libdisni.so: skipped, with the build's reason, only when the build could not compile it (no
 * rdma-core headers); a library that was built but does not load is a failure.
 */
final class NativeLibraryAssumptions {
    static final Path BUILD_OUTPUT = Path.of("target", "native");

    private NativeLibraryAssumptions() {
    }

    static NativeLibrary.Status requireBuiltLibrary() {
        NativeLibrary.Status status = NativeLibrary.status();
        if (status.loaded()) {
            return status;
        }
        Path marker = BUILD_OUTPUT.resolve(NativeLibrary.SKIPPED_MARKER);
        if (Files.isRegularFile(marker)) {
            try {
                Assumptions.abort("the build did not compile the native library on this host: "
                    + Files.readString(marker).strip());
            } catch (IOException e) {
                Assumptions.abort("the build did not compile the native library on this host");
            }
        }
        return fail("the native library was built but does not load: " + status.problem());
    }
}
