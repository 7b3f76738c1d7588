package io.pragh.gremlin.server;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;
import org.apache.tinkerpop.gremlin.util.Tokens;
import org.apache.tinkerpop.gremlin.util.message.ResponseMessage;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatus;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What an error response may show a client: a short message in Gremlin's terms, without Java class names, stack
 * traces or the server's internals. Gremlin Server puts the exception's class names and its whole stack trace in
 * every error's status attributes ({@code exceptions}, {@code stackTrace}) and often a class name in the message;
 * this encoder, the last to see each response before it is framed, drops those attributes and rewrites the message:
 * a gremlin-lang syntax error becomes {@code syntax error at line 1, column 5: ...}, exception prefixes and stack
 * frames go, class names shrink to their simple names, a bare exception name becomes a sentence. The status code is
 * kept (clients decide on retries by it), and the full exception stays in the server's log, where Gremlin Server
 * writes it.
 *
 * <p>Example: {@code pipeline.addAfter("response-frame-encoder", "client-errors", new ClientErrors());}
 */
@ChannelHandler.Sharable
public final class ClientErrors extends MessageToMessageEncoder<ResponseMessage> {
    /** Longest message a client is sent; the rest is in the server log. */
    static final int MAX_MESSAGE = 1_000;
    private static final Pattern SYNTAX = Pattern.compile(
        "(?:Failed to interpret Gremlin query: )?Query parsing failed at line (\\d+), character position at (\\d+),"
            + " error message : (.*)", Pattern.DOTALL);
    /** An ANTLR "expecting {a, b, ...}" set: long ones list the whole grammar. */
    private static final Pattern EXPECTING = Pattern.compile("expecting \\{([^}]*)}");
    private static final Pattern STACK_FRAME = Pattern.compile("(?m)^\\s*(?:at [\\w.$/<>]+\\(.*|\\.\\.\\. \\d+ more|Caused by: .*)$");
    /** What Throwable.toString() puts before a message: the qualified class name and a colon. */
    private static final Pattern EXCEPTION_PREFIX = Pattern.compile(
        "\\b(?:[a-z_][a-z0-9_]*\\.){2,}[\\w$]*(?:Exception|Error|Throwable):\\s*");
    /** A qualified class name (at least two package names, so that {@code g.V} is not one); group 1 its simple name. */
    private static final Pattern QUALIFIED_NAME = Pattern.compile(
        "\\b(?:[a-z_][a-z0-9_]*\\.){2,}([A-Z]\\w*)(?:\\$[\\w$]*)?");
    private static final Pattern CAST = Pattern.compile(
        "class (\\w+) cannot be cast to class (\\w+)(?: \\([^)]*\\))?");
    private static final Pattern BARE_EXCEPTION = Pattern.compile("\\w*(?:Exception|Error|Throwable)");
    private static final Map<String, String> BARE = Map.of(
        "NoSuchElementException", "the traversal has no result to return (next() of an empty traversal; toList() or"
            + " tryNext() return nothing instead)",
        "NullPointerException", "a value the request needs is missing (null)",
        "StackOverflowError", "the request nests or repeats too deeply");

    @Override
    protected void encode(final ChannelHandlerContext ctx, final ResponseMessage msg, final List<Object> out) {
        final ResponseStatus status = msg.getStatus();
        final ResponseStatusCode code = status.getCode();
        if (code.isSuccess() || code == ResponseStatusCode.AUTHENTICATE) {
            out.add(msg);
            return;
        }
        final Map<String, Object> attributes = new HashMap<>(status.getAttributes());
        attributes.remove(Tokens.STATUS_ATTRIBUTE_EXCEPTIONS);
        attributes.remove(Tokens.STATUS_ATTRIBUTE_STACK_TRACE);
        out.add(ResponseMessage.build(msg.getRequestId()).code(code).statusMessage(message(status.getMessage()))
            .statusAttributes(attributes).result(msg.getResult().getData())
            .responseMetaData(msg.getResult().getMeta()).create());
    }

    /** The message a client is shown for {@code message}, as the server wrote it. */
    static String message(final String message) {
        if (message == null || message.isBlank()) {
            return "the request failed on the server (its log has the details)";
        }
        final Matcher syntax = SYNTAX.matcher(message);
        if (syntax.matches()) {
            return cut("syntax error at line " + syntax.group(1) + ", column " + (Integer.parseInt(syntax.group(2)) + 1)
                + ": " + expecting(firstLine(syntax.group(3))));
        }
        String m = STACK_FRAME.matcher(message).replaceAll("").strip();
        m = EXCEPTION_PREFIX.matcher(m).replaceAll("");
        m = QUALIFIED_NAME.matcher(m).replaceAll("$1");
        m = CAST.matcher(m).replaceAll("a $1 was given where a $2 is expected");
        if (BARE_EXCEPTION.matcher(m).matches()) {
            return BARE.getOrDefault(m, "the request failed on the server (its log has the details)");
        }
        return cut(m.replaceAll("\\s*\\n\\s*", " "));
    }

    private static String firstLine(final String s) {
        final int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).strip();
    }

    private static String expecting(final String antlr) {
        final Matcher m = EXPECTING.matcher(antlr);
        if (m.find() && m.group(1).split(",").length > 8) {
            return antlr.substring(0, m.start()) + "expecting one of " + m.group(1).split(",").length + " other tokens"
                + antlr.substring(m.end());
        }
        return antlr;
    }

    private static String cut(final String m) {
        return m.length() <= MAX_MESSAGE ? m : m.substring(0, MAX_MESSAGE) + "... (cut; the server log has it all)";
    }
}
