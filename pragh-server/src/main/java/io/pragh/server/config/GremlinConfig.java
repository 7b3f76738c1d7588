package io.pragh.server.config;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What every machine's Gremlin port admits beyond traversals of the graph. The section is optional; without it
 * {@code io()} is refused and no login is asked for.
 *
 * <pre>{@code
 * gremlin:
 *   allowIo: /srv/pragh-io           # io() may read and write files inside this directory only (absent: refused)
 *   credentialsFile: gremlin-users   # clients log in: one 'user:password' a line (absent: no logins)
 * }</pre>
 *
 * @param allowIo         the one directory {@code io()} may use (relative paths are relative to the file), or null
 * @param credentialsFile the {@code user:password} file clients log in with, or null for no logins; machines forward
 *                        traversals to each other as a user whose password they derive from the cluster secret
 */
public record GremlinConfig(Path allowIo, Path credentialsFile) {
    /** io() refused, no logins. */
    public static final GremlinConfig DEFAULT = new GremlinConfig(null, null);

    static GremlinConfig read(ConfigNode n, Path baseDir) {
        n.allow("allowIo", "credentialsFile");
        Path allowIo = null;
        if (n.has("allowIo")) {
            allowIo = baseDir.resolve(n.string("allowIo", null)).normalize();
            if (!Files.isDirectory(allowIo)) {
                throw n.error("allowIo", allowIo + " is not a directory on this machine");
            }
        }
        Path credentials = null;
        if (n.has("credentialsFile")) {
            credentials = baseDir.resolve(n.string("credentialsFile", null)).normalize();
            if (!Files.isRegularFile(credentials) || !Files.isReadable(credentials)) {
                throw n.error("credentialsFile", "cannot read " + credentials);
            }
        }
        return new GremlinConfig(allowIo, credentials);
    }
}
