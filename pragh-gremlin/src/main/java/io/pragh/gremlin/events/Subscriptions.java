package io.pragh.gremlin.events;

import io.pragh.gremlin.storage.GraphKeys;
import io.pragh.gremlin.storage.ViewRecords;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.keys.KeyLayout;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The durable half of event handlers: which named subscription listens to which view for which kinds, kept as one
 * property record under {@code SHARED(3)} and changed by the view property mutator at its host, so a durable
 * cluster's log and recovery keep subscriptions as they keep views. Handler code is never stored: after a restart
 * the embedder hands its handlers to the subscriptions that survived ({@link ViewEvents#handle}).
 *
 * <p>Example: {@code Subscriptions.put(store, "incidents", new Subscription("paloAlto", kinds));}
 */
final class Subscriptions {
    /** What one subscription listens to. */
    static final class Subscription {
        final String view;
        final Set<EventKind> kinds;

        Subscription(final String view, final Set<EventKind> kinds) {
            this.view = view;
            this.kinds = kinds.isEmpty() ? EnumSet.noneOf(EventKind.class) : EnumSet.copyOf(kinds);
        }

        int mask() {
            int m = 0;
            for (final EventKind k : kinds) {
                m |= k.bit();
            }
            return m;
        }

        String encode() {
            final StringBuilder b = new StringBuilder(view).append('\n');
            for (final EventKind k : kinds) {
                b.append(k.name()).append(',');
            }
            return b.toString();
        }

        static Subscription decode(final String s) {
            final int nl = s.lastIndexOf('\n');
            final Set<EventKind> kinds = EnumSet.noneOf(EventKind.class);
            for (final String k : s.substring(nl + 1).split(",")) {
                if (!k.isEmpty()) {
                    kinds.add(EventKind.valueOf(k));
                }
            }
            return new Subscription(s.substring(0, nl), kinds);
        }
    }

    private Subscriptions() {
    }

    static long key() {
        return KeyLayout.key(3, 0, GraphKeys.SHARED);
    }

    /** Every stored subscription, by name. */
    static Map<String, Subscription> load(final GraphStore store) {
        final Map<String, Subscription> out = new TreeMap<>();
        ViewRecords.properties(store.get(key())).forEach((name, s) -> out.put(name, Subscription.decode((String) s)));
        return out;
    }

    static void put(final GraphStore store, final String name, final Subscription s) {
        store.update(key(), ViewRecords.PROPERTY, ViewRecords.property(name, s.encode()));
    }

    static void remove(final GraphStore store, final String name) {
        store.update(key(), ViewRecords.PROPERTY, ViewRecords.property(name, null));
    }
}
