package io.pragh.gremlin.distributed;

import io.pragh.gremlin.events.EventKind;
import io.pragh.server.rpc.MachineClient;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A client of one machine's view event streams over its client port ({@link ViewEventsExtension}): subscribe, poll,
 * unsubscribe. Each event is a map {@code kind, view, vid, version} (plus {@code property, value} for a property set),
 * as a Gremlin subscriber receives it; one vertex's events come in update order. A machine streams the events
 * committed on it: subscribe at every machine for a whole view.
 *
 * <p>Example:
 * <pre>{@code
 * ViewEventsClient events = new ViewEventsClient(machineClient);
 * long stream = events.subscribe("paloAlto", Set.of(EventKind.PROPERTY_UPDATE));
 * for (Map<String, Object> e : events.poll(stream, 100)) { System.out.println(e); }
 * events.unsubscribe(stream);
 * }</pre>
 */
public final class ViewEventsClient {
    private final MachineClient client;
    private final Map<Long, String> views = new java.util.concurrent.ConcurrentHashMap<>();

    public ViewEventsClient(final MachineClient client) {
        this.client = client;
    }

    /** Opens a stream of {@code view}'s events of {@code kinds} (at least one); returns its id. */
    public long subscribe(final String view, final Set<EventKind> kinds) {
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("a subscription to view '" + view + "' needs at least one event kind");
        }
        final long stream = client.extension("SUBSCRIBE", ViewEventFrames.subscribe(view, kinds)).getLong(0);
        views.put(stream, view);
        return stream;
    }

    /** Up to {@code max} events the stream holds now, oldest first (empty when none: it never waits). */
    public List<Map<String, Object>> poll(final long stream, final int max) {
        return ViewEventFrames.events(client.extension("POLL", ViewEventFrames.poll(stream, max)),
            views.getOrDefault(stream, "?"));
    }

    /**
     * A long poll: up to {@code max} events as soon as the stream holds one, or none once {@code waitMillis} passed
     * (the server waits at most 30 s; keep it below this client's answer timeout). The server holds no thread
     * meanwhile.
     */
    public List<Map<String, Object>> poll(final long stream, final int max, final int waitMillis) {
        return ViewEventFrames.events(client.extension("POLL", ViewEventFrames.poll(stream, max, waitMillis)),
            views.getOrDefault(stream, "?"));
    }

    public void unsubscribe(final long stream) {
        client.extension("UNSUBSCRIBE", ViewEventFrames.unsubscribe(stream));
        views.remove(stream);
    }
}
