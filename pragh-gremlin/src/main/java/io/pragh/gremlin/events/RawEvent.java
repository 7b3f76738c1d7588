package io.pragh.gremlin.events;

/**
 * What a tap copies out of a committed update or a GET before handing it to a lane: the key, its version (0 for a
 * read), the kind, the member vertex, the view bits it had then (when {@link #bitsKnown}: the membership mirror was
 * seeded), the other end of an added edge whose membership is still to be looked up (or -1), the update's argument
 * (null for a read), when it happened, and where: the machine it happened on (the reader, or where the update
 * committed) and the machine its value was on (a read's value may be another machine's: a remote read).
 */
final class RawEvent {
    final EventKind kind;
    final long key;
    final long version;
    final long vid;
    /** Whether {@link #bits} is the membership as of the event; if not, the lane looks it up. */
    final boolean bitsKnown;
    /** The subscribed views the vertex (and, folded in, the other end of an added edge) was in at the event. */
    final long bits;
    final long other;
    /**
     * Whether the event's edge list may hold an edge member of a subscribed view (the mirror's superset): the lane
     * then reads the out-vertex's edge membership record and adds the views of the edge (or list) concerned.
     */
    final boolean edgeLookup;
    final int mutatorId;
    final byte[] arg;
    final long nanos;
    final int machine;
    final int host;

    RawEvent(final EventKind kind, final long key, final long version, final long vid, final boolean bitsKnown,
             final long bits, final long other, final boolean edgeLookup, final int mutatorId, final byte[] arg, final long nanos,
             final int machine, final int host) {
        this.kind = kind;
        this.key = key;
        this.version = version;
        this.vid = vid;
        this.bitsKnown = bitsKnown;
        this.bits = bits;
        this.other = other;
        this.edgeLookup = edgeLookup;
        this.mutatorId = mutatorId;
        this.arg = arg;
        this.nanos = nanos;
        this.machine = machine;
        this.host = host;
    }
}
