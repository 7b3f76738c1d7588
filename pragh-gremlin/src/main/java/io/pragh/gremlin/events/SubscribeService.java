package io.pragh.gremlin.events;

import io.pragh.gremlin.view.CallService;

import java.util.EnumSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * {@code g.call("pragh.subscribe", [view: ..., events: [...], limit: n, timeout: ms])}: a remote client's
 * subscription to a view's events, as a traversal whose results are the events, streamed while they happen (server
 * push over an ordinary Gremlin request: every TinkerPop driver consumes it). Each result is a map {@code kind,
 * view, vid, version} (plus {@code property, value} for a property set). The stream ends after {@code limit}
 * events (default 1,000) or {@code timeout} ms without one (default 30,000); the client subscribes again to go on.
 * {@code events} names kinds ({@link EventKind}); by default the three update kinds. Results reach the client in
 * batches of the request's {@code batchSize}: ask for 1 ({@code g.with("batchSize", 1)}) to get each event as it
 * is handled, and raise {@code evaluationTimeout} above the stream's length. Nothing but names and numbers comes
 * from the wire: remote clients receive events, they never upload handler code. Events are tapped where updates
 * commit: on a multi-process cluster a stream carries the events of the serving process's machine, so a client
 * that wants a whole view subscribes at every machine's Gremlin port.
 *
 * <p>Example (Python): {@code for e in g.with_("batchSize", 1).call("pragh.subscribe", {"view": "paloAlto",
 * "limit": 10}).to_list(): print(e)}
 */
final class SubscribeService extends CallService<Map<String, Object>> {
    static final String NAME = "pragh.subscribe";
    /** Events one remote stream holds before it drops (and counts) the next. */
    private static final int CAPACITY = 16_384;

    private final ViewEvents events;

    SubscribeService(final ViewEvents events) {
        super(NAME);
        this.events = events;
    }

    @Override
    protected List<Map<String, Object>> answers(final Map<?, ?> params) {
        final List<Map<String, Object>> out = new java.util.ArrayList<>();
        stream(params).forEachRemaining(out::add);
        return out;
    }

    @Override
    protected Iterator<Map<String, Object>> stream(final Map<?, ?> params) {
        final String view = string(params, "view");
        final long limit = params.containsKey("limit") ? number(params, "limit") : 1_000;
        final long timeout = params.containsKey("timeout") ? number(params, "timeout") : 30_000;
        if (limit < 1 || timeout < 1) {
            throw new IllegalArgumentException(NAME + " needs a positive limit and timeout; got limit " + limit
                + ", timeout " + timeout);
        }
        final Set<EventKind> kinds = kinds(params.get("events"));
        return new Events(events, events.open(view, kinds, CAPACITY), limit, timeout);
    }

    private static Set<EventKind> kinds(final Object v) {
        if (v == null) {
            return EnumSet.of(EventKind.VERTEX_UPDATE, EventKind.EDGE_UPDATE, EventKind.PROPERTY_UPDATE);
        }
        if (!(v instanceof List) || ((List<?>) v).isEmpty()) {
            throw new IllegalArgumentException(NAME + " parameter 'events' is a non-empty list of event kinds "
                + java.util.Arrays.toString(EventKind.values()) + "; got " + v);
        }
        final Set<EventKind> kinds = EnumSet.noneOf(EventKind.class);
        for (final Object k : (List<?>) v) {
            kinds.add(EventKind.parse(String.valueOf(k)));
        }
        return kinds;
    }

    /** The open stream as an iterator: {@code hasNext} waits for the next event; the end closes the stream. */
    private static final class Events implements Iterator<Map<String, Object>>, AutoCloseable {
        private final ViewEvents events;
        private final RemoteStream stream;
        private final long limit;
        private final long timeout;
        private long given;
        private Map<String, Object> next;
        private boolean closed;

        Events(final ViewEvents events, final RemoteStream stream, final long limit, final long timeout) {
            this.events = events;
            this.stream = stream;
            this.limit = limit;
            this.timeout = timeout;
        }

        @Override
        public boolean hasNext() {
            if (next != null) {
                return true;
            }
            if (closed || given >= limit) {
                close();
                return false;
            }
            try {
                next = stream.poll(timeout);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the request was cancelled or timed out
            }
            if (next == null) {
                close();
                return false;
            }
            return true;
        }

        @Override
        public Map<String, Object> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            final Map<String, Object> out = next;
            next = null;
            given++;
            return out;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                events.close(stream);
            }
        }
    }
}
