package io.pragh.rdma.jni;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Loads {@code libdisni.so}, Pragh's native verbs library, once per JVM and says how that went. The name is DiSNI's
 * ({@code System.loadLibrary("disni")}), so DiSNI's own classes find the same library. Loading never throws: a
 * missing or foreign library is a {@link Status} with the reason, which {@code ./pragh doctor} prints and fabric
 * selection uses to fall back.
 *
 * <pre>{@code
 * NativeLibrary.Status s = NativeLibrary.status();
 * System.out.println(s.loaded() ? "loaded from " + s.path() : "not loaded: " + s.problem());
 * }</pre>
 */
public final class NativeLibrary {
    public static final String NAME = "disni";
    public static final String FILE_NAME = System.mapLibraryName(NAME);
    /** Written by the Maven build next to where the library would be when it skipped building it. */
    static final String SKIPPED_MARKER = "SKIPPED";

    /** The outcome of loading: either loaded (path and version) or not (problem says why). */
    public record Status(boolean loaded, String path, int nativeVersion, String problem) {
        static Status ok(String path, int version) {
            return new Status(true, path, version, null);
        }

        static Status failed(String problem) {
            return new Status(false, null, -1, problem);
        }
    }

    private static Status status;

    private NativeLibrary() {
    }

    /** Loads the library on first call; later calls return the same answer. */
    public static synchronized Status status() {
        if (status == null) {
            status = load();
        }
        return status;
    }

    /** Throws IllegalStateException with the reason unless the library is loaded. */
    public static Status require() {
        Status s = status();
        if (!s.loaded()) {
            throw new IllegalStateException("the native verbs library is not loaded: " + s.problem());
        }
        return s;
    }

    private static Status load() {
        String searchPath = System.getProperty("java.library.path", "");
        try {
            System.loadLibrary(NAME);
        } catch (UnsatisfiedLinkError e) {
            return Status.failed(whyMissing(searchPath, e));
        }
        int version;
        String path;
        try {
            version = PraghVerbs.nativeVersion();
            path = PraghVerbs.libraryPath();
        } catch (UnsatisfiedLinkError e) {
            return Status.failed("the " + FILE_NAME + " on java.library.path is not Pragh's (it lacks Pragh's entry "
                + "points, perhaps IBM's DiSNI build): " + e.getMessage());
        }
        if (version != PraghVerbs.EXPECTED_NATIVE_VERSION) {
            return Status.failed(path + " has Pragh native version " + version + " but this code needs "
                + PraghVerbs.EXPECTED_NATIVE_VERSION + "; rebuild it with 'mvn -pl pragh-rdma-jni package'");
        }
        return Status.ok(path, version);
    }

    /** Explains a failed load, including the build's own reason when it skipped compiling the library. */
    private static String whyMissing(String searchPath, UnsatisfiedLinkError e) {
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path marker = Path.of(dir, SKIPPED_MARKER);
            if (Files.isRegularFile(marker) && !Files.exists(Path.of(dir, FILE_NAME))) {
                try {
                    return "the build skipped " + FILE_NAME + ": " + Files.readString(marker, StandardCharsets.UTF_8)
                        .strip();
                } catch (IOException ignored) {
                    // fall through to the loader's own message
                }
            }
        }
        return "no " + FILE_NAME + " could be loaded from java.library.path '" + searchPath + "': " + e.getMessage();
    }
}
