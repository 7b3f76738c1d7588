package io.pragh.gremlin.server;

import org.apache.tinkerpop.gremlin.process.traversal.Bytecode;
import org.apache.tinkerpop.gremlin.server.auth.AuthenticatedUser;
import org.apache.tinkerpop.gremlin.server.authz.AuthorizationException;
import org.apache.tinkerpop.gremlin.server.authz.Authorizer;
import org.apache.tinkerpop.gremlin.util.Tokens;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;

import java.nio.file.Path;
import java.util.Map;

/**
 * Gremlin Server's gate, on {@code ./pragh serve} and every cluster machine's Gremlin port, with or without logins:
 * admits only what cannot run arbitrary code or reach past the graph. Groovy scripts (including scripts that name no
 * language, which Gremlin Server would run as Groovy) are refused with a message saying what to send instead;
 * bytecode and {@code gremlin-lang} scripts are admitted step by step by the {@link StepPolicy} (no lambdas, no
 * {@code io()} outside the {@code --allow-io} directory, only Pragh's read-only services, no graph computer programs).
 * The connection and the server stay up. Removing the Groovy engine from the settings is not enough for this, since
 * Gremlin Server finds it on the class path anyway. Configuration {@code allowGroovy: true} (set by
 * {@code ./pragh serve --allow-groovy}) admits Groovy and lambdas, and so any code; {@code allowIo: DIR} admits
 * {@code io()} inside DIR.
 *
 * <p>Example: {@code settings.authorization.authorizer = SafeAuthorizer.class.getName();}
 */
public final class SafeAuthorizer implements Authorizer {
    public static final String ALLOW_GROOVY = "allowGroovy";
    /** The directory io() may use, a path; absent: io() is refused. */
    public static final String ALLOW_IO = "allowIo";
    static final String GREMLIN_LANG = "gremlin-lang";

    private boolean allowGroovy;
    private StepPolicy policy;

    @Override
    public void setup(final Map<String, Object> config) {
        allowGroovy = config != null && Boolean.parseBoolean(String.valueOf(config.get(ALLOW_GROOVY)));
        final Object io = config == null ? null : config.get(ALLOW_IO);
        policy = new StepPolicy(io == null ? null : IoDirectory.of(Path.of(io.toString())), allowGroovy);
    }

    @Override
    public Bytecode authorize(final AuthenticatedUser user, final Bytecode bytecode, final Map<String, String> aliases)
        throws AuthorizationException {
        BytecodeSteps.check(bytecode, policy);
        return bytecode;
    }

    @Override
    public void authorize(final AuthenticatedUser user, final RequestMessage msg) throws AuthorizationException {
        final Object language = msg.getArgs().get(Tokens.ARGS_LANGUAGE);
        if (GREMLIN_LANG.equals(language)) {
            final Object script = msg.getArgs().get(Tokens.ARGS_GREMLIN);
            if (!(script instanceof String)) {
                throw new AuthorizationException("a gremlin-lang request carries its script as a string");
            }
            // The handler passes this very message on: an io() path resolved by the policy replaces the one asked for.
            msg.getArgs().put(Tokens.ARGS_GREMLIN, ScriptSteps.check((String) script, policy));
        } else if (!allowGroovy) {
            throw new AuthorizationException("scripts in " + (language == null ? "the default language (gremlin-groovy)" : "'" + language + "'")
                + " are refused by this server: send bytecode or a script with language 'gremlin-lang'"
                + " (start the server with --allow-groovy to run Groovy)");
        }
    }
}
