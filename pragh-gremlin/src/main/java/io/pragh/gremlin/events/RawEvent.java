package io.pragh.gremlin.events;

/**
 * What a tap copies out of a committed update or a GET before handing it to a lane: the key, its version (0 for a
 * read), the kind, the member vertex and, for an edge, the other end (or -1), the update's argument (null for a
 * read), and when it happened.
 */
final class RawEvent {
    final EventKind kind;
    final long key;
    final long version;
    final long vid;
    final long other;
    final int mutatorId;
    final byte[] arg;
    final long nanos;

    RawEvent(final EventKind kind, final long key, final long version, final long vid, final long other,
             final int mutatorId, final byte[] arg, final long nanos) {
        this.kind = kind;
        this.key = key;
        this.version = version;
        this.vid = vid;
        this.other = other;
        this.mutatorId = mutatorId;
        this.arg = arg;
        this.nanos = nanos;
    }
}
