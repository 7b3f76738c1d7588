package io.pragh.gremlin.server;

import static org.apache.tinkerpop.gremlin.groovy.jsr223.dsl.credential.CredentialGraphTokens.PROPERTY_PASSWORD;
import static org.apache.tinkerpop.gremlin.groovy.jsr223.dsl.credential.CredentialGraphTokens.PROPERTY_USERNAME;

import org.apache.tinkerpop.gremlin.server.auth.AuthenticatedUser;
import org.apache.tinkerpop.gremlin.server.auth.AuthenticationException;
import org.apache.tinkerpop.gremlin.server.auth.SimpleAuthenticator;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Gremlin Server logins from a {@code user:password} file ({@code ./pragh serve --credentials FILE}, cluster file
 * {@code gremlin.credentialsFile}), over SimpleAuthenticator's SASL PLAIN exchange, which every TinkerPop driver
 * speaks. The users are kept in memory, each password as a salted SHA-256 digest compared in constant time: no
 * credentials graph, no temporary files, nothing serialized (SimpleAuthenticator's own credentials graph needs Gryo,
 * which needs {@code java.util.concurrent.atomic} opened to reflection). A wrong user and a wrong password are refused
 * alike, and no password is ever logged or put in a message.
 *
 * <p>A cluster machine also admits {@link #PEER_USER} with the password every machine derives from the cluster
 * secret, which it uses itself to forward traversals to their home machine.
 *
 * <p>Example: {@code settings.authentication.config = Map.of(PasswordFileAuthenticator.PASSWORD_FILE, "users.txt");}
 */
public final class PasswordFileAuthenticator extends SimpleAuthenticator {
    /** The {@code user:password} file, a path. */
    public static final String PASSWORD_FILE = "passwordFile";
    /** Optional: the password of {@link #PEER_USER}. */
    public static final String PEER_PASSWORD = "peerPassword";
    /** The user a cluster machine logs in as on the other machines' Gremlin ports. */
    public static final String PEER_USER = "pragh-peer";
    private static final String REFUSED = "Username and/or password are incorrect";

    private final byte[] salt = new byte[16];
    private final Map<String, byte[]> digests = new HashMap<>();
    /** Compared against when the user is unknown, so that an unknown user takes as long as a wrong password. */
    private byte[] nobody;

    @Override
    public void setup(final Map<String, Object> config) {
        final Object file = config == null ? null : config.get(PASSWORD_FILE);
        if (file == null) {
            throw new IllegalArgumentException(PasswordFileAuthenticator.class.getSimpleName() + " needs '"
                + PASSWORD_FILE + "' in the authentication config");
        }
        new SecureRandom().nextBytes(salt);
        final Map<String, String> users;
        try {
            users = read(Path.of(file.toString()));
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        users.forEach((user, password) -> digests.put(user, digest(password)));
        final Object peer = config.get(PEER_PASSWORD);
        if (peer != null) {
            digests.put(PEER_USER, digest(peer.toString()));
        }
        final byte[] random = new byte[32];
        new SecureRandom().nextBytes(random);
        nobody = digest(java.util.HexFormat.of().formatHex(random));
    }

    /**
     * The users of a {@code user:password} file (one a line; blank lines and lines starting with {@code #} are
     * skipped; the password is everything after the first colon). Errors name the file and line, never a password.
     */
    public static Map<String, String> read(final Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("credentials file " + file + " does not exist");
        }
        final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        final Map<String, String> users = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            final int colon = line.indexOf(':');
            if (colon <= 0 || colon == line.length() - 1) {
                throw new IOException(file + " line " + (i + 1) + ": expected 'user:password'");
            }
            final String user = line.substring(0, colon);
            if (user.equals(PEER_USER)) {
                throw new IOException(file + " line " + (i + 1) + ": the user name '" + PEER_USER
                    + "' is reserved for the machines of a cluster");
            }
            if (users.put(user, line.substring(colon + 1)) != null) {
                throw new IOException(file + " line " + (i + 1) + ": user '" + user + "' is named twice");
            }
        }
        if (users.isEmpty()) {
            throw new IOException(file + " names no user: nobody could log in");
        }
        return users;
    }

    @Override
    public AuthenticatedUser authenticate(final Map<String, String> credentials) throws AuthenticationException {
        final String user = credentials.get(PROPERTY_USERNAME);
        final String password = credentials.get(PROPERTY_PASSWORD);
        if (user == null || password == null) {
            throw new AuthenticationException(REFUSED);
        }
        final byte[] expected = digests.get(user);
        final boolean same = MessageDigest.isEqual(expected == null ? nobody : expected, digest(password));
        if (expected == null || !same) {
            throw new AuthenticationException(REFUSED);
        }
        return new AuthenticatedUser(user);
    }

    private byte[] digest(final String password) {
        try {
            final MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(salt);
            return sha.digest(password.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
