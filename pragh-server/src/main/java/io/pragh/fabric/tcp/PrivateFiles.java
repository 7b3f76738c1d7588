package io.pragh.fabric.tcp;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.Set;

/**
 * Files that hold a secret (a cluster file with {@code security.clusterSecret}, a private key, a credentials
 * store): readable and writable by their owner only, {@code 0600}, from the moment they exist, so that no other
 * user of the host reads the secret in the window between writing and restricting. On a file system without POSIX
 * permissions the files are written as usual.
 *
 * <pre>{@code
 * PrivateFiles.writeString(dir.resolve("cluster.yaml"), yaml);
 * }</pre>
 */
public final class PrivateFiles {
    /** {@code rw-------}. */
    public static final Set<PosixFilePermission> OWNER_ONLY =
        EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);

    private PrivateFiles() {
    }

    /** Writes {@code text} (UTF-8) to {@code file}, created {@code 0600} or restricted to it before the write. */
    public static void writeString(Path file, String text) throws IOException {
        if (isPosix(file)) {
            if (Files.exists(file)) {
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            } else {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            }
        }
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** Restricts a file another library wrote to {@code 0600}. */
    public static void restrict(Path file) throws IOException {
        if (isPosix(file)) {
            Files.setPosixFilePermissions(file, OWNER_ONLY);
        }
    }

    private static boolean isPosix(Path file) {
        return file.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
