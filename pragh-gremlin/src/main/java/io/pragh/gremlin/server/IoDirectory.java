package io.pragh.gremlin.server;

import org.apache.tinkerpop.gremlin.server.authz.AuthorizationException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * The one directory {@code io()} may read and write ({@code ./pragh serve --allow-io DIR}, {@code gremlin.allowIo} in
 * a cluster file). A requested path, absolute or relative to the directory, is admitted only when it names an entry
 * inside the directory once {@code ..} and every symbolic link on the way are resolved: an existing entry by its own
 * real path (so a link inside that points out is refused), a new file by the real path of its parent. The refusal
 * reads the same whether or not the file outside exists, so io() cannot probe the server's files; nor does it name
 * the directory's place on the server.
 *
 * <p>What is checked is the path at the time of the request; someone who can write inside the directory could swap
 * an entry for a link between the check and the read, so the directory should be one only Pragh writes.
 *
 * <p>Example: {@code Path file = IoDirectory.of(Path.of("/srv/pragh-io")).confine("exports/graph.json");}
 */
public final class IoDirectory {
    private final Path root;

    private IoDirectory(final Path root) {
        this.root = root;
    }

    /** The directory at {@code dir}, by its real path; it must exist. */
    public static IoDirectory of(final Path dir) {
        final Path real;
        try {
            real = dir.toRealPath();
        } catch (IOException e) {
            throw new IllegalArgumentException("the io() directory " + dir + " does not exist");
        }
        if (!Files.isDirectory(real)) {
            throw new IllegalArgumentException("the io() directory " + dir + " is not a directory");
        }
        return new IoDirectory(real);
    }

    /** The directory's real path. */
    public Path root() {
        return root;
    }

    /** The real path {@code requested} names inside the directory; refused when it leads out of it. */
    public Path confine(final String requested) throws AuthorizationException {
        final Path asked;
        try {
            asked = Path.of(requested);
        } catch (InvalidPathException e) {
            throw refusal(requested, "it is not a valid path");
        }
        // Decided on the text alone first, before the file system is asked anything about a path outside.
        final Path target = root.resolve(asked).normalize();
        if (!target.startsWith(root) || target.equals(root)) {
            throw outside(requested);
        }
        final Path real;
        try {
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                real = target.toRealPath(); // a dangling link throws: refused below, never written through
            } else {
                real = target.getParent().toRealPath().resolve(target.getFileName());
            }
        } catch (IOException e) {
            throw refusal(requested, "its directory does not exist inside the --allow-io directory, or a link on the"
                + " way leads nowhere");
        }
        if (!real.startsWith(root) || real.equals(root)) {
            throw outside(requested);
        }
        return real;
    }

    private static AuthorizationException outside(final String requested) {
        return refusal(requested, "io() may only read and write files inside the --allow-io directory (give a path"
            + " relative to it; '..' and links that lead out are refused)");
    }

    private static AuthorizationException refusal(final String requested, final String why) {
        return new AuthorizationException("io('" + requested + "') is refused: " + why);
    }
}
