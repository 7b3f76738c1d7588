package io.pragh.gremlin.events;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.ViewRecords;
import io.pragh.gremlin.structure.DutyReads;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.keys.Placement;
import io.pragh.store.AccessObserver;
import io.pragh.store.CommitObserver;
import io.pragh.store.MachineStore;
import io.pragh.store.Mutators;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.List;

/**
 * Turns the committed updates and GETs of this process's machines into {@link RawEvent}s for the lanes: a
 * {@link CommitObserver} per machine (so an update is seen where it committed, at its home or the host of its
 * value, exactly when it committed, before its writer hears of it), and, while some subscription wants reads, an
 * {@link AccessObserver} chained before the one installed already (the monitor's). A tap keeps the
 * {@link MembershipMirror} up to date with the membership updates it sees, classifies the key, and stamps the event
 * with its vertex's view bits as of that moment (membership as of commit), read from the mirror without waiting: an
 * update of a vertex in no subscribed view is dropped there. The mirror answers only for vertices homed in this
 * process ({@link #mirrored}): a GET of another process's vertex looks membership up when it is handled, as events
 * tapped before the mirror was seeded do. Keys that are not a vertex record, an outgoing adjacency
 * or an edge properties record are skipped after one comparison; so is every event when no subscription wants its
 * kind (one volatile load).
 *
 * <p>Example: {@code EventTaps taps = new EventTaps(store, mirror, lanes::offer); taps.want(kinds, views);}
 */
final class EventTaps implements AutoCloseable {
    private final List<MachineStore> machines;
    private final MembershipMirror mirror;
    /**
     * Whether every machine is in this process: the mirror then knows the other end of an edge too; otherwise that
     * end's membership is looked up when the event is handled.
     */
    private final boolean allLocal;
    /** Where every key's home is, and which machines run in this process, by id; see {@link #mirrored}. */
    private final Placement placement;
    private final boolean[] local;
    private final java.util.function.Consumer<RawEvent> sink;
    private final AccessObserver[] previous;
    /** The kinds some subscription wants, as {@link EventKind#bit} flags; volatile, read once per tapped event. */
    private volatile int wanted;
    /** The views some subscription listens to, one bit each; written before {@link #wanted}, read after it. */
    private volatile long wantedViews;
    private boolean readsTapped;

    EventTaps(final GraphStore store, final MembershipMirror mirror, final java.util.function.Consumer<RawEvent> sink) {
        this.machines = store.localMachines();
        this.mirror = mirror;
        this.allLocal = machines.size() == store.machines();
        this.placement = machines.isEmpty() ? null : machines.get(0).placement();
        this.local = new boolean[store.machines()];
        for (final MachineStore m : machines) {
            local[m.id()] = true;
        }
        this.sink = sink;
        this.previous = new AccessObserver[machines.size()];
        for (final MachineStore m : machines) {
            final int id = m.id();
            m.setCommitObserver((key, version, mutatorId, arg, argOff, argLen, deleted) ->
                onCommit(id, key, version, mutatorId, arg, argOff, argLen, deleted));
        }
    }

    /**
     * Taps the kinds in {@code mask} of members of the views in {@code views} from now on (and reads only while a
     * read kind is in the mask).
     */
    synchronized void want(final int mask, final long views) {
        wantedViews = views;
        wanted = mask;
        final boolean reads = (mask & (EventKind.VERTEX_READ.bit() | EventKind.EDGE_READ.bit()
            | EventKind.PROPERTY_READ.bit())) != 0;
        if (reads != readsTapped) {
            for (int i = 0; i < machines.size(); i++) {
                final MachineStore m = machines.get(i);
                if (reads) {
                    previous[i] = m.accessObserver();
                    final AccessObserver before = previous[i];
                    final int reader = m.id();
                    m.setAccessObserver((key, home, host) -> {
                        if (before != null) {
                            before.onAccess(key, home, host);
                        }
                        onRead(key, reader, host);
                    });
                } else {
                    m.setAccessObserver(previous[i]);
                }
            }
            readsTapped = reads;
        }
    }

    private void onCommit(final int machine, final long key, final long version, final int mutatorId, final DirectBuffer arg,
                          final int argOff, final int argLen, final boolean deleted) {
        // Every membership update, subscribed or not: the mirror must follow them all to answer for any vertex.
        mirror.onCommit(key, version, mutatorId, arg, argOff, argLen, deleted);
        final int mask = wanted;
        if (mask == 0) {
            return;
        }
        final int keyKind = GraphKeys.kind(key);
        final EventKind kind;
        if (keyKind == GraphKeys.VERTEX) {
            kind = mutatorId == GraphMutations.VERTEX ? EventKind.PROPERTY_UPDATE : EventKind.VERTEX_UPDATE;
        } else if (keyKind == GraphKeys.EDGE) {
            kind = EventKind.PROPERTY_UPDATE;
        } else if (keyKind == GraphKeys.OUT) {
            kind = EventKind.EDGE_UPDATE;
        } else {
            return;
        }
        if ((mask & kind.bit()) == 0) {
            return;
        }
        final long vid = GraphKeys.vid(key);
        final boolean known = mirror.seeded() && mirrored(vid);
        long bits = known ? mirror.bits(vid) & wantedViews : -1L;
        // A new edge is no edge member yet; any other event of an edge list or record may concern one.
        final boolean edges = !(kind == EventKind.EDGE_UPDATE && mutatorId == Mutators.APPEND) && mayHoldEdgeMembers(
            keyKind, vid, key, known);
        if (bits == 0 && !edges) {
            return; // in no subscribed view when it committed
        }
        // An added edge names its other end: the edge is a member only when both ends are.
        long other = kind == EventKind.EDGE_UPDATE && mutatorId == Mutators.APPEND
            && argLen == Adjacency.ENTRY_BYTES
            ? arg.getLong(argOff + Adjacency.neighbourOffset(0), ByteOrder.LITTLE_ENDIAN) : -1;
        if (other >= 0 && known && allLocal) {
            bits &= mirror.bits(other);
            other = -1;
            if (bits == 0 && !edges) {
                return;
            }
        }
        final byte[] copy = new byte[argLen];
        arg.getBytes(argOff, copy);
        sink.accept(new RawEvent(kind, key, version, vid, known, bits, other, edges, mutatorId, copy, System.nanoTime(),
            machine, machine));
    }

    private void onRead(final long key, final int reader, final int host) {
        final int keyKind = GraphKeys.kind(key);
        final EventKind kind = keyKind == GraphKeys.VERTEX ? EventKind.VERTEX_READ
            : keyKind == GraphKeys.OUT ? EventKind.EDGE_READ
            : keyKind == GraphKeys.EDGE ? EventKind.PROPERTY_READ : null;
        // A handler's own reads are not events: a read handler reading its member would feed itself for ever. Nor
        // are the graph's housekeeping reads (the segment sweep reads every home list each period).
        if (kind == null || (wanted & kind.bit()) == 0 || EventPool.onPoolThread() || DutyReads.onDutyThread()) {
            return;
        }
        final long vid = GraphKeys.vid(key);
        final boolean known = mirror.seeded() && mirrored(vid);
        final long bits = known ? mirror.bits(vid) & wantedViews : -1L;
        final boolean edges = mayHoldEdgeMembers(keyKind, vid, key, known);
        if (bits != 0 || edges) {
            sink.accept(new RawEvent(kind, key, 0, vid, known, bits, -1, edges, -1, null, System.nanoTime(), reader,
                host));
        }
    }

    /**
     * Whether the mirror answers for {@code vid}: its membership records (vertex and edge members) are homed on a
     * machine of this process, so their updates are observed here and feed the mirror. Always when every machine is
     * here. In a multi-process cluster (whose machines are durable: an update, of a migrated value too, is observed
     * at its key's home once logged, see {@link io.pragh.store.CommitObserver}) an update's vertex is always homed
     * here, but a GET is tapped at its reader, whatever the vertex's home: a read of another process's vertex looks
     * membership up at the vertex's home when handled. One placement hash; never waits.
     */
    private boolean mirrored(final long vid) {
        return allLocal || local[placement.home(ViewRecords.members(vid))];
    }

    /** Whether an event of edge-list or edge-record {@code key} may concern an edge member of a subscribed view. */
    private boolean mayHoldEdgeMembers(final int keyKind, final long vid, final long key, final boolean known) {
        return keyKind != GraphKeys.VERTEX
            && (!known || (mirror.edgeBits(vid, GraphKeys.label(key)) & wantedViews) != 0);
    }

    @Override
    public synchronized void close() {
        want(0, 0);
        for (final MachineStore m : machines) {
            m.setCommitObserver(null);
        }
    }
}
