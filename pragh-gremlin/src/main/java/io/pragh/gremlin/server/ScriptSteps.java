package io.pragh.gremlin.server;

import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.atn.PredictionMode;
import org.antlr.v4.runtime.tree.ParseTree;
import org.apache.commons.text.StringEscapeUtils;
import org.apache.tinkerpop.gremlin.language.grammar.GremlinAntlrToJava;
import org.apache.tinkerpop.gremlin.language.grammar.GremlinErrorListener;
import org.apache.tinkerpop.gremlin.language.grammar.GremlinLexer;
import org.apache.tinkerpop.gremlin.language.grammar.GremlinParser;
import org.apache.tinkerpop.gremlin.language.grammar.GenericLiteralVisitor;
import org.apache.tinkerpop.gremlin.process.traversal.IO;
import org.apache.tinkerpop.gremlin.process.traversal.TraversalStrategies;
import org.apache.tinkerpop.gremlin.server.authz.AuthorizationException;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;

/**
 * Puts every step of a {@code gremlin-lang} script to a {@link StepPolicy}, from its parse tree: the script is parsed
 * as the {@code gremlin-lang} engine parses it (the same grammar, SLL then LL), but nothing is built or run, so a
 * step that would act while a traversal is built (a strategy loading a class, a terminated traversal in an argument)
 * is judged before it can. Every node is looked at, nested traversals and every query of a multi-query script
 * included. A script that does not parse is admitted: the engine's own parse fails the same way and nothing runs.
 * The path of an admitted {@code io()} is replaced, in the script, by the real path the policy resolved.
 *
 * <p>Example: {@code ScriptSteps.check("g.io('/etc/hostname').read()", policy); // throws: io() is refused}
 */
final class ScriptSteps {
    private static final GremlinErrorListener THROW_ON_ERROR = new GremlinErrorListener();
    /** The constants {@code with()} may name, as gremlin-lang spells them. */
    private static final Map<String, String> IO_CONSTANTS = Map.of("IO.reader", IO.reader, "IO.writer", IO.writer,
        "IO.graphson", IO.graphson, "IO.gryo", IO.gryo, "IO.graphml", IO.graphml);
    private static final GenericLiteralVisitor LITERALS = new GenericLiteralVisitor(new GremlinAntlrToJava());

    private ScriptSteps() {
    }

    /**
     * The script to run when the policy admits every step (or the script does not parse): the script itself, or with
     * each {@code io()} path replaced by the real path the policy admitted. Throws naming the first step refused.
     */
    static String check(final String script, final StepPolicy policy) throws AuthorizationException {
        final ParseTree tree = parse(script);
        if (tree == null) {
            return script;
        }
        final StringBuilder admitted = new StringBuilder(script);
        // Nodes in reverse order of their place in the script, so each replacement leaves the earlier ones in place.
        final Deque<ParseTree> pending = new ArrayDeque<>();
        pending.push(tree);
        while (!pending.isEmpty()) {
            final ParseTree node = pending.pop();
            if (node instanceof ParserRuleContext ctx) {
                step(ctx, policy, admitted);
            }
            for (int i = 0; i < node.getChildCount(); i++) {
                pending.push(node.getChild(i));
            }
        }
        return admitted.toString();
    }

    /** The parse tree, or null when the script does not parse. */
    static ParseTree parse(final String script) {
        final GremlinLexer lexer = new GremlinLexer(CharStreams.fromString(script));
        lexer.removeErrorListeners();
        lexer.addErrorListener(THROW_ON_ERROR);
        final CommonTokenStream tokens = new CommonTokenStream(lexer);
        final GremlinParser parser = new GremlinParser(tokens);
        parser.removeErrorListeners();
        parser.addErrorListener(THROW_ON_ERROR);
        // As GremlinQueryParser: SLL first, LL for what SLL cannot decide.
        for (final PredictionMode mode : new PredictionMode[] {PredictionMode.SLL, PredictionMode.LL}) {
            try {
                tokens.seek(0);
                lexer.reset();
                parser.reset();
                parser.getInterpreter().setPredictionMode(mode);
                return parser.queryList();
            } catch (RuntimeException e) {
                // not in this mode; the next one, or none
            }
        }
        return null;
    }

    private static void step(final ParserRuleContext ctx, final StepPolicy policy, final StringBuilder script)
        throws AuthorizationException {
        if (ctx instanceof GremlinParser.TraversalSourceSpawnMethod_ioContext io) {
            final GremlinParser.StringLiteralContext path = io.stringLiteral();
            final String real = policy.io(string(path)).toString();
            script.replace(path.getStart().getStartIndex(), path.getStop().getStopIndex() + 1,
                '"' + StringEscapeUtils.escapeJava(real) + '"');
        } else if (ctx instanceof GremlinParser.TraversalSourceSpawnMethod_callContext
            || ctx instanceof GremlinParser.TraversalMethod_callContext) {
            final GremlinParser.StringLiteralContext service = ctx.getRuleContext(GremlinParser.StringLiteralContext.class, 0);
            policy.service(service == null ? null : string(service));
        } else if (ctx instanceof GremlinParser.TraversalStrategyContext s) {
            final String name = s.classType().getText();
            policy.strategy(name, TraversalStrategies.GlobalCache.getRegisteredStrategyClass(name).orElse(null));
        } else if (ctx instanceof GremlinParser.TraversalMethod_with_StringContext with) {
            policy.ioOption(key(with.withOptionKeys(), with.stringLiteral()), null);
        } else if (ctx instanceof GremlinParser.TraversalMethod_with_String_ObjectContext with) {
            policy.ioOption(key(with.withOptionKeys(), with.stringLiteral()), value(with));
        }
    }

    private static String key(final GremlinParser.WithOptionKeysContext constant,
                              final GremlinParser.StringLiteralContext literal) {
        return constant != null ? IO_CONSTANTS.getOrDefault(constant.getText(), constant.getText()) : string(literal);
    }

    private static Object value(final GremlinParser.TraversalMethod_with_String_ObjectContext with) {
        if (with.ioOptionsValues() != null) {
            return IO_CONSTANTS.get(with.ioOptionsValues().getText());
        }
        if (with.genericLiteral() != null && with.genericLiteral().stringLiteral() != null) {
            return string(with.genericLiteral().stringLiteral());
        }
        return (with.withOptionsValues() != null ? with.withOptionsValues() : with.genericLiteral()).getText();
    }

    private static String string(final GremlinParser.StringLiteralContext literal) {
        return LITERALS.parseString(literal);
    }
}
