package io.pragh.gremlin.distributed;

import io.pragh.gremlin.events.ViewEvents;
import io.pragh.gremlin.hotspot.ViewHotspots;
import io.pragh.server.extension.ClientOperations;
import io.pragh.server.extension.ServerExtension;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * View event subscriptions over the client port (issue 17), for clients that speak the client protocol rather than
 * Gremlin: {@code extensions: [views]} in the cluster file. A client opens a stream of a view's events
 * ({@code SUBSCRIBE}), drains it with {@code POLL} (with a wait, a long poll: answered at the next event, or empty
 * once the wait passed; without, at once) and closes it
 * ({@code UNSUBSCRIBE}); a stream nobody polls for {@link ViewEvents#POLLED_IDLE_MILLIS} closes itself. The events
 * are this machine's, as over Gremlin (tapped where updates commit), taken from the view event handlers of its Gremlin
 * front end, which the machine must run. Only names and numbers cross the wire. {@link ViewEventsClient} is the
 * client side, {@link ViewEventFrames} the format. {@code HOTSPOT_READS} takes a watched view's read counts in the
 * machine's process: the coordinator's process gathers them for a hotspot round ({@link ServedHotspotMachines}).
 *
 * <p>Example (cluster file): {@code extensions: [views]}; then
 * {@code new ViewEventsClient(machineClient).subscribe("paloAlto", Set.of(EventKind.PROPERTY_UPDATE))}.
 */
public final class ViewEventsExtension implements ServerExtension {
    /** Events one polled stream holds between polls before it drops (and counts) the next. */
    static final int CAPACITY = 16_384;
    /** Most events one POLL answers with. */
    static final int MAX_POLL = 4_096;

    @Override
    public String name() {
        return "views";
    }

    @Override
    public Map<Byte, String> operations() {
        return Map.of(ViewEventFrames.SUBSCRIBE, "SUBSCRIBE", ViewEventFrames.POLL, "POLL",
            ViewEventFrames.UNSUBSCRIBE, "UNSUBSCRIBE", ViewEventFrames.HOTSPOT_READS, "HOTSPOT_READS");
    }

    @Override
    public ClientOperations open(final Host host) {
        return (request, length) -> {
            final byte op = request.getByte(0);
            if (op == ViewEventFrames.SUBSCRIBE) {
                if (length < 6) {
                    throw new IllegalArgumentException("SUBSCRIBE of " + length + " bytes: it needs a kinds mask and"
                        + " a view name");
                }
                final String view = request.getStringWithoutLengthUtf8(5, length - 5);
                final int kinds = request.getInt(1);
                // Opening reads the view catalog: on the machine's workers, not the connection's thread.
                return host.machine().submit(() -> long8(events(host).openPolled(view,
                    ViewEventFrames.kinds(kinds), CAPACITY)));
            }
            if (op == ViewEventFrames.HOTSPOT_READS) {
                if (length < 2) {
                    throw new IllegalArgumentException("HOTSPOT_READS of " + length + " bytes: it needs a view name");
                }
                final String view = request.getStringWithoutLengthUtf8(1, length - 1);
                // Reads the view's stored watch: on the machine's workers.
                return host.machine().submit(() -> ViewEventFrames.reads(hotspots(host).takeReads(view)));
            }
            if (op == ViewEventFrames.POLL ? length != 13 && length != 17 : length != 9) {
                throw new IllegalArgumentException((op == ViewEventFrames.POLL ? "POLL" : "UNSUBSCRIBE") + " of "
                    + length + " bytes (expected " + (op == ViewEventFrames.POLL ? "13, or 17 with a wait" : "9") + ")");
            }
            final long stream = request.getLong(1);
            if (op == ViewEventFrames.POLL) {
                final int max = Math.max(1, Math.min(MAX_POLL, request.getInt(9)));
                final long wait = length == 17 ? Math.max(0, request.getInt(13)) : 0;
                return events(host).poll(stream, max, wait).thenApply(ViewEventFrames::events);
            }
            events(host).closePolled(stream);
            return CompletableFuture.completedFuture(new byte[0]);
        };
    }

    private static ViewEvents events(final Host host) {
        final ViewEvents e = ViewEvents.serving(host.machine().store());
        if (e == null) {
            throw new IllegalArgumentException("machine " + host.machine().id() + " serves no view events: the views"
                + " extension needs the machine's Gremlin front end (a gremlinPort in the cluster file)");
        }
        return e;
    }

    private static ViewHotspots hotspots(final Host host) {
        final ViewHotspots h = ViewHotspots.open(events(host));
        if (h == null) {
            throw new IllegalArgumentException("machine " + host.machine().id() + " runs no view hotspot migration");
        }
        return h;
    }

    private static byte[] long8(final long v) {
        final byte[] out = new byte[8];
        new org.agrona.concurrent.UnsafeBuffer(out).putLong(0, v);
        return out;
    }
}
