package io.pragh.gremlin.hotspot;

import io.pragh.address.Address;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.ViewRecords;
import io.pragh.keys.KeyRegion;
import org.agrona.collections.LongArrayList;

/**
 * The values of one view member that a hot view's placement moves together (Concerto moves a vertex with its data):
 * its vertex record, its membership record, and per edge label its outgoing and incoming lists and its outgoing
 * edges' property record, each only when its key exists; and where a value lives now, read from the address word at
 * the key's home (in this process; {@link HotspotMachines#hosts} asks any cluster). Sealed segments of a supernode's lists stay (they migrate alone, by the per-key policy).
 *
 * <p>Example: {@code LongArrayList keys = MemberValues.keys(cluster, vid, labels); int at = MemberValues.host(cluster, GraphKeys.vertex(vid));}
 */
final class MemberValues {
    private MemberValues() {
    }

    /** Keys per member {@link #candidates} names: vertex, membership, then three per edge label. */
    static int perMember(final int labels) {
        return 2 + 3 * labels;
    }

    /**
     * Every key member {@code vid} may have over edge labels {@code labels}, present or not, appended to {@code out}
     * ({@link #perMember} of them, the vertex record first): a round asks where they all are in one batch and moves
     * those that have a value.
     */
    static void candidates(final long vid, final int[] labels, final LongArrayList out) {
        out.addLong(GraphKeys.vertex(vid));
        out.addLong(ViewRecords.members(vid));
        for (final int label : labels) {
            out.addLong(GraphKeys.out(vid, label));
            out.addLong(GraphKeys.in(vid, label));
            out.addLong(GraphKeys.edgeProperties(vid, label));
        }
    }

    /** The keys of member {@code vid} present at their home, over edge labels {@code labels}. */
    static LongArrayList keys(final EmbeddedCluster cluster, final long vid, final int[] labels) {
        final LongArrayList all = new LongArrayList();
        candidates(vid, labels, all);
        final LongArrayList out = new LongArrayList();
        for (int i = 0; i < all.size(); i++) {
            if (host(cluster, all.getLong(i)) >= 0) {
                out.addLong(all.getLong(i));
            }
        }
        return out;
    }

    /** The machine holding {@code key}'s value now, or -1 when the key has no value. */
    static int host(final EmbeddedCluster cluster, final long key) {
        final int home = cluster.placement().home(key);
        final KeyRegion keys = cluster.machine(home).store().keys();
        final long slot = keys.find(key);
        if (slot < 0) {
            return -1;
        }
        final long address = keys.address(slot);
        return Address.isNone(address) ? -1 : Address.host(address, home); // none: absent or deleted
    }
}
