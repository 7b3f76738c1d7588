package io.pragh.gremlin.server;

import org.apache.tinkerpop.gremlin.process.traversal.Bytecode;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.server.auth.AuthenticatedUser;
import org.apache.tinkerpop.gremlin.server.authz.AuthorizationException;
import org.apache.tinkerpop.gremlin.server.authz.Authorizer;
import org.apache.tinkerpop.gremlin.util.Tokens;
import org.apache.tinkerpop.gremlin.util.function.Lambda;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;

import java.util.Map;

/**
 * Admits only what cannot run arbitrary code: scripts in the {@code gremlin-lang} language and bytecode without
 * lambdas. Groovy scripts (including scripts that name no language, which Gremlin Server would run as Groovy) and
 * lambdas are refused with a message saying what to send instead; the connection and the server stay up. Removing
 * the Groovy engine from the settings is not enough for this, since Gremlin Server finds it on the class path anyway.
 * Configuration {@code allowGroovy: true} (set by {@code ./pragh serve --allow-groovy}) admits everything.
 *
 * <p>Example: {@code settings.authorization.authorizer = SafeAuthorizer.class.getName();}
 */
public final class SafeAuthorizer implements Authorizer {
    public static final String ALLOW_GROOVY = "allowGroovy";
    static final String GREMLIN_LANG = "gremlin-lang";

    private boolean allowGroovy;

    @Override
    public void setup(final Map<String, Object> config) {
        allowGroovy = config != null && Boolean.parseBoolean(String.valueOf(config.get(ALLOW_GROOVY)));
    }

    @Override
    public Bytecode authorize(final AuthenticatedUser user, final Bytecode bytecode, final Map<String, String> aliases)
        throws AuthorizationException {
        if (!allowGroovy) {
            refuseLambdas(bytecode);
        }
        return bytecode;
    }

    @Override
    public void authorize(final AuthenticatedUser user, final RequestMessage msg) throws AuthorizationException {
        if (allowGroovy) {
            return;
        }
        final Object language = msg.getArgs().get(Tokens.ARGS_LANGUAGE);
        if (!GREMLIN_LANG.equals(language)) {
            throw new AuthorizationException("scripts in " + (language == null ? "the default language (gremlin-groovy)" : "'" + language + "'")
                + " are refused by this server: send bytecode or a script with language 'gremlin-lang'"
                + " (start the server with --allow-groovy to run Groovy)");
        }
    }

    private static void refuseLambdas(final Bytecode bytecode) throws AuthorizationException {
        for (final Bytecode.Instruction instruction : bytecode.getInstructions()) {
            for (final Object argument : instruction.getArguments()) {
                refuseLambda(instruction, argument);
            }
        }
    }

    private static void refuseLambda(final Bytecode.Instruction instruction, final Object argument) throws AuthorizationException {
        if (argument instanceof Lambda) {
            throw new AuthorizationException("lambdas are refused by this server (step " + instruction.getOperator()
                + "): express the step in Gremlin without a lambda (start the server with --allow-groovy to allow them)");
        } else if (argument instanceof Bytecode) {
            refuseLambdas((Bytecode) argument);
        } else if (argument instanceof Traversal) {
            refuseLambdas(((Traversal<?, ?>) argument).asAdmin().getBytecode());
        } else if (argument instanceof Object[]) {
            for (final Object nested : (Object[]) argument) {
                refuseLambda(instruction, nested);
            }
        } else if (argument instanceof Iterable) {
            for (final Object nested : (Iterable<?>) argument) {
                refuseLambda(instruction, nested);
            }
        }
    }
}
