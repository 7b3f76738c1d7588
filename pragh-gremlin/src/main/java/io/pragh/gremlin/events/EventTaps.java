package io.pragh.gremlin.events;

import io.pragh.gremlin.storage.Adjacency;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.store.AccessObserver;
import io.pragh.store.CommitObserver;
import io.pragh.store.MachineStore;
import io.pragh.store.Mutators;
import org.agrona.DirectBuffer;

import java.util.List;

/**
 * Turns the committed updates and GETs of this process's machines into {@link RawEvent}s for the lanes: a
 * {@link CommitObserver} per machine (so an update is seen where it committed, at its home or the host of its
 * value, exactly when it committed, before its writer hears of it), and, while some subscription wants reads, an
 * {@link AccessObserver} chained before the one installed already (the monitor's). A tap only classifies the key
 * and copies the argument; membership is looked up on the lane, never on the store's thread. Keys that are not a
 * vertex record, an outgoing adjacency or an edge properties record are skipped after one comparison; so is every
 * event when no subscription wants its kind (one volatile load).
 *
 * <p>Example: {@code EventTaps taps = new EventTaps(store.localMachines(), lanes::offer); taps.want(mask);}
 */
final class EventTaps implements AutoCloseable {
    private final List<MachineStore> machines;
    private final java.util.function.Consumer<RawEvent> sink;
    private final AccessObserver[] previous;
    /** The kinds some subscription wants, as {@link EventKind#bit} flags; volatile, read once per tapped event. */
    private volatile int wanted;
    private boolean readsTapped;

    EventTaps(final List<MachineStore> machines, final java.util.function.Consumer<RawEvent> sink) {
        this.machines = machines;
        this.sink = sink;
        this.previous = new AccessObserver[machines.size()];
        for (final MachineStore m : machines) {
            m.setCommitObserver(this::onCommit);
        }
    }

    /** Taps the kinds in {@code mask} from now on (and reads only while a read kind is in it). */
    synchronized void want(final int mask) {
        wanted = mask;
        final boolean reads = (mask & (EventKind.VERTEX_READ.bit() | EventKind.EDGE_READ.bit()
            | EventKind.PROPERTY_READ.bit())) != 0;
        if (reads != readsTapped) {
            for (int i = 0; i < machines.size(); i++) {
                final MachineStore m = machines.get(i);
                if (reads) {
                    previous[i] = m.accessObserver();
                    final AccessObserver before = previous[i];
                    m.setAccessObserver((key, home, host) -> {
                        if (before != null) {
                            before.onAccess(key, home, host);
                        }
                        onRead(key);
                    });
                } else {
                    m.setAccessObserver(previous[i]);
                }
            }
            readsTapped = reads;
        }
    }

    private void onCommit(final long key, final long version, final int mutatorId, final DirectBuffer arg,
                          final int argOff, final int argLen, final boolean deleted) {
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
        final byte[] copy = new byte[argLen];
        arg.getBytes(argOff, copy);
        // An added edge names its other end: the edge is a member only when both ends are.
        final long other = kind == EventKind.EDGE_UPDATE && mutatorId == Mutators.APPEND
            && argLen == Adjacency.ENTRY_BYTES ? Adjacency.neighbour(copy, 0) : -1;
        sink.accept(new RawEvent(kind, key, version, GraphKeys.vid(key), other, mutatorId, copy, System.nanoTime()));
    }

    private void onRead(final long key) {
        final int keyKind = GraphKeys.kind(key);
        final EventKind kind = keyKind == GraphKeys.VERTEX ? EventKind.VERTEX_READ
            : keyKind == GraphKeys.OUT ? EventKind.EDGE_READ
            : keyKind == GraphKeys.EDGE ? EventKind.PROPERTY_READ : null;
        // A handler's own reads are not events: a read handler reading its member would feed itself for ever.
        if (kind == null || (wanted & kind.bit()) == 0 || EventLanes.onLane()) {
            return;
        }
        sink.accept(new RawEvent(kind, key, 0, GraphKeys.vid(key), -1, -1, null, System.nanoTime()));
    }

    @Override
    public synchronized void close() {
        want(0);
        for (final MachineStore m : machines) {
            m.setCommitObserver(null);
        }
    }
}
