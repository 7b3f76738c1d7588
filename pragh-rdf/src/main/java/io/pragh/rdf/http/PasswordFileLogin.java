package io.pragh.rdf.http;

import com.sun.net.httpserver.BasicAuthenticator;
import io.pragh.gremlin.server.PasswordFileAuthenticator;
import org.apache.tinkerpop.gremlin.server.auth.AuthenticationException;

import java.nio.file.Path;
import java.util.Map;

import static org.apache.tinkerpop.gremlin.groovy.jsr223.dsl.credential.CredentialGraphTokens.PROPERTY_PASSWORD;
import static org.apache.tinkerpop.gremlin.groovy.jsr223.dsl.credential.CredentialGraphTokens.PROPERTY_USERNAME;

/**
 * HTTP Basic logins on the SPARQL endpoint, checked by the Gremlin port's own {@link PasswordFileAuthenticator} over
 * the same {@code user:password} file: one list of users, one way of keeping and comparing their passwords (salted
 * digests, constant-time, never logged). A request without a valid login gets 401 and the Basic challenge.
 *
 * <p>Example: {@code context.setAuthenticator(new PasswordFileLogin(Path.of("users.txt")));}
 */
final class PasswordFileLogin extends BasicAuthenticator {
    private final PasswordFileAuthenticator users = new PasswordFileAuthenticator();

    /** Reads the file now: a bad file fails the start (an IllegalArgumentException naming its line). */
    PasswordFileLogin(final Path file) {
        super("pragh-sparql");
        users.setup(Map.of(PasswordFileAuthenticator.PASSWORD_FILE, file.toString()));
    }

    @Override
    public boolean checkCredentials(final String user, final String password) {
        try {
            users.authenticate(Map.of(PROPERTY_USERNAME, user, PROPERTY_PASSWORD, password));
            return true;
        } catch (AuthenticationException e) {
            return false;
        }
    }
}
