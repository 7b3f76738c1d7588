package io.pragh.gremlin.server;

import org.apache.commons.configuration2.Configuration;
import org.apache.tinkerpop.gremlin.process.traversal.Bytecode;
import org.apache.tinkerpop.gremlin.process.traversal.P;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.step.GValue;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.TraversalStrategyProxy;
import org.apache.tinkerpop.gremlin.process.traversal.util.ConnectiveP;
import org.apache.tinkerpop.gremlin.server.authz.AuthorizationException;
import org.apache.tinkerpop.gremlin.util.function.Lambda;

import java.util.Iterator;
import java.util.Map;

/**
 * Puts every step of a bytecode request to a {@link StepPolicy}: source and step instructions alike (spawns such as
 * {@code io} and {@code call} are step instructions), and every argument down to nested traversals, strategies and
 * their configurations, collections and predicates, so that nothing refused hides inside an argument. The path of an
 * admitted {@code io()} is replaced, in the bytecode, by the real path the policy resolved.
 *
 * <p>Example: {@code BytecodeSteps.check(traversal.asAdmin().getBytecode(), policy);}
 */
final class BytecodeSteps {
    private BytecodeSteps() {
    }

    /**
     * Returns normally when the policy admits every step, with each {@code io()} path replaced by the real path the
     * policy admitted; throws naming the first step it refuses.
     */
    static void check(final Bytecode bytecode, final StepPolicy policy) throws AuthorizationException {
        for (final Bytecode.Instruction i : bytecode.getSourceInstructions()) {
            instruction(i, policy);
        }
        for (final Bytecode.Instruction i : bytecode.getStepInstructions()) {
            instruction(i, policy);
        }
    }

    private static void instruction(final Bytecode.Instruction i, final StepPolicy policy) throws AuthorizationException {
        final String op = i.getOperator();
        final Object[] args = i.getArguments();
        switch (op) {
            // The path io() will use is the one the policy resolved (relative paths are relative to the allowed
            // directory, links resolved), not the one asked for.
            case "io" -> args[0] = policy.io(string(op, args, 0)).toString();
            case "call" -> policy.service(args.length == 0 ? null : string(op, args, 0));
            case "with" -> policy.ioOption(args.length == 0 ? null : String.valueOf(value(args[0])),
                args.length < 2 ? null : value(args[1]));
            case "withComputer", "program" -> policy.computer(op + "()");
            default -> { }
        }
        for (final Object a : args) {
            argument(op, a, policy);
        }
    }

    private static String string(final String op, final Object[] args, final int at) throws AuthorizationException {
        final Object v = args.length > at ? value(args[at]) : null;
        if (!(v instanceof String s)) {
            throw new AuthorizationException(op + "() expects a string here, got " + (v == null ? "nothing"
                : v.getClass().getSimpleName()));
        }
        return s;
    }

    /** The value of a bytecode binding or a parameter, else the argument itself. */
    private static Object value(final Object argument) {
        Object v = argument;
        if (v instanceof Bytecode.Binding<?> b) {
            v = b.value();
        }
        if (v instanceof GValue<?> g) {
            v = g.get();
        }
        return v;
    }

    private static void argument(final String op, final Object argument, final StepPolicy policy)
        throws AuthorizationException {
        final Object a = value(argument);
        if (a instanceof Lambda) {
            policy.lambda(op);
        } else if (a instanceof Bytecode b) {
            check(b, policy);
        } else if (a instanceof Traversal<?, ?> t) {
            check(t.asAdmin().getBytecode(), policy);
        } else if (a instanceof TraversalStrategy<?> s) {
            final Class<?> type = s instanceof TraversalStrategyProxy<?> p ? p.getStrategyClass() : s.getClass();
            policy.strategy(type.getSimpleName(), type);
            final Configuration conf = s.getConfiguration();
            for (final Iterator<String> keys = conf.getKeys(); keys.hasNext(); ) {
                argument(op, conf.getProperty(keys.next()), policy);
            }
        } else if (a instanceof ConnectiveP<?> c) {
            for (final P<?> p : c.getPredicates()) {
                argument(op, p, policy);
            }
        } else if (a instanceof P<?> p) {
            argument(op, p.getValue(), policy);
        } else if (a instanceof Object[] array) {
            for (final Object nested : array) {
                argument(op, nested, policy);
            }
        } else if (a instanceof Iterable<?> iterable) {
            for (final Object nested : iterable) {
                argument(op, nested, policy);
            }
        } else if (a instanceof Map<?, ?> map) {
            for (final Map.Entry<?, ?> e : map.entrySet()) {
                argument(op, e.getKey(), policy);
                argument(op, e.getValue(), policy);
            }
        }
    }
}
