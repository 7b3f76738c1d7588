package io.pragh.gremlin.server;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.pragh.LimitExceededException;
import io.pragh.fabric.FabricException;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.UUID;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.tinkerpop.gremlin.process.traversal.Bytecode;
import org.apache.tinkerpop.gremlin.process.traversal.translator.GroovyTranslator;
import org.apache.tinkerpop.gremlin.process.traversal.util.TraversalInterruptedException;
import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.util.TemporaryException;
import org.apache.tinkerpop.gremlin.util.Tokens;
import org.apache.tinkerpop.gremlin.util.message.RequestMessage;

/**
 * What a served graph's Gremlin requests cost: each one's evaluation time (from the start of its evaluation to its
 * last result, Gremlin Server's query hooks through {@link PraghGraphManager}) in a histogram, its failures by
 * {@link ErrorKind}, and one log line for each request slower than the slow-query threshold, on the logger
 * {@code io.pragh.gremlin.slow}:
 *
 * <pre>
 * slow Gremlin request (1,204 ms, success): g.V(1L).out().out().count()
 * </pre>
 * The text is the request's script or its bytecode as Gremlin, cut at {@value #MAX_TEXT} characters.
 *
 * <p>Gremlin Server makes the graph manager by reflection, so the requests of a graph are found through the graph:
 * {@link #attach} before the server starts, {@link #of} from the manager.
 *
 * <pre>{@code
 * GremlinRequests.attach(graph, new GremlinRequests(registry, Tags.empty(), Duration.ofSeconds(1)));
 * PraghServer server = PraghServer.start(graph, options);
 * }</pre>
 */
public final class GremlinRequests {
    /** Longest request text a slow-query line shows. */
    public static final int MAX_TEXT = 500;
    private static final int MAX_IN_FLIGHT = 100_000;
    private static final System.Logger SLOW = System.getLogger("io.pragh.gremlin.slow");
    private static final Map<Graph, GremlinRequests> ATTACHED = Collections.synchronizedMap(new WeakHashMap<>());

    /** Why a request failed, as the {@code kind} tag of {@code pragh_gremlin_errors_total}. */
    public enum ErrorKind {
        /** A machine the request needed is down or unreachable, or an address went stale: retryable. */
        UNAVAILABLE,
        /** The evaluation timeout ran out (Gremlin Server interrupts the traversal), or an operation's timeout. */
        TIMEOUT,
        /** A size limit of the store (value, region, address word). */
        LIMIT,
        /** The request itself is wrong: bad arguments, a step the server refuses, a syntax error. */
        INVALID,
        /** Anything else. */
        OTHER;

        String tag() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The kind of {@code t}, looking through its causes for the most telling one. */
        static ErrorKind of(Throwable t) {
            for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
                if (c instanceof TemporaryException || c instanceof FabricException f && f.retryable()) {
                    return UNAVAILABLE;
                }
                // Gremlin Server interrupts a traversal whose evaluation timeout ran out.
                if (c instanceof TimeoutException || c instanceof InterruptedException
                    || c instanceof TraversalInterruptedException) {
                    return TIMEOUT;
                }
                if (c instanceof LimitExceededException) {
                    return LIMIT;
                }
            }
            for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
                if (c instanceof IllegalArgumentException || c instanceof SecurityException
                    || c instanceof UnsupportedOperationException
                    || c.getClass().getSimpleName().contains("Verification")
                    || c.getClass().getSimpleName().contains("Syntax")) {
                    return INVALID;
                }
            }
            return OTHER;
        }
    }

    private final Timer succeeded;
    private final Timer failed;
    private final Map<ErrorKind, Counter> errors = new EnumMap<>(ErrorKind.class);
    private final Counter slow;
    private final long slowNanos;
    private final Map<UUID, Long> started = new ConcurrentHashMap<>();

    /**
     * @param registry  where the meters go
     * @param tags      added to every meter (a cluster machine adds its {@code machine})
     * @param slowQuery requests slower than this are logged; zero logs none
     */
    public GremlinRequests(MeterRegistry registry, Tags tags, Duration slowQuery) {
        this.succeeded = timer(registry, tags.and("outcome", "success"));
        this.failed = timer(registry, tags.and("outcome", "error"));
        for (ErrorKind k : ErrorKind.values()) {
            errors.put(k, Counter.builder("pragh.gremlin.errors").description("Gremlin requests that failed, by kind")
                .tags(tags.and("kind", k.tag())).register(registry));
        }
        this.slow = Counter.builder("pragh.gremlin.slow.requests")
            .description("Gremlin requests slower than the slow-query threshold (each one logged)").tags(tags)
            .register(registry);
        this.slowNanos = slowQuery.toNanos();
    }

    private static Timer timer(MeterRegistry registry, Tags tags) {
        return Timer.builder("pragh.gremlin.requests")
            .description("Evaluation time of Gremlin requests, from the start of evaluation to the last result")
            .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
            .maximumExpectedValue(Duration.ofMinutes(1)).tags(tags).register(registry);
    }

    /** Makes {@code requests} the ones the graph manager of {@code graph} reports to. */
    public static void attach(Graph graph, GremlinRequests requests) {
        ATTACHED.put(graph, requests);
    }

    /** The requests attached to {@code graph}, or null. */
    static GremlinRequests of(Graph graph) {
        return graph == null ? null : ATTACHED.get(graph);
    }

    void started(RequestMessage msg) {
        if (started.size() >= MAX_IN_FLIGHT) {
            // Requests Gremlin Server never reported finished (none should be): forget them rather than grow.
            started.clear();
        }
        started.put(msg.getRequestId(), System.nanoTime());
    }

    void succeeded(RequestMessage msg) {
        finished(msg, succeeded, "success");
    }

    void failed(RequestMessage msg, Throwable error) {
        ErrorKind kind = ErrorKind.of(error);
        errors.get(kind).increment();
        finished(msg, failed, "error: " + kind.tag());
    }

    private void finished(RequestMessage msg, Timer timer, String outcome) {
        Long t0 = started.remove(msg.getRequestId());
        if (t0 == null) {
            return; // failed before its evaluation started: counted as an error, no time to record
        }
        long nanos = System.nanoTime() - t0;
        timer.record(nanos, TimeUnit.NANOSECONDS);
        if (slowNanos > 0 && nanos >= slowNanos) {
            slow.increment();
            SLOW.log(System.Logger.Level.INFO, String.format(java.util.Locale.ROOT,
                "slow Gremlin request (%,d ms, %s): %s", TimeUnit.NANOSECONDS.toMillis(nanos), outcome, text(msg)));
        }
    }

    /** The request's script or bytecode, as one line cut at {@link #MAX_TEXT} characters. */
    static String text(RequestMessage msg) {
        Object gremlin = msg.getArgs().get(Tokens.ARGS_GREMLIN);
        String text;
        if (gremlin instanceof Bytecode b) {
            try {
                text = GroovyTranslator.of("g").translate(b).getScript();
            } catch (RuntimeException e) {
                text = b.toString();
            }
        } else {
            text = String.valueOf(gremlin);
        }
        text = text.replaceAll("\\s+", " ");
        return text.length() <= MAX_TEXT ? text : text.substring(0, MAX_TEXT) + "... (" + text.length() + " chars)";
    }
}
