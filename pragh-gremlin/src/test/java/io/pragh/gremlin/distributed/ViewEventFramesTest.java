package io.pragh.gremlin.distributed;

import io.pragh.gremlin.events.EventKind;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ViewEventFramesTest {
    private static Map<String, Object> event(final EventKind kind, final long vid, final String property,
                                             final Object value) {
        final Map<String, Object> e = new LinkedHashMap<>();
        e.put("kind", kind.name());
        e.put("view", "city");
        e.put("vid", vid);
        e.put("version", vid * 10);
        if (property != null) {
            e.put("property", property);
            e.put("value", value);
        }
        return e;
    }

    @Test
    void everyValueTypeAndAnEventWithoutAPropertyComeBackAsSent() {
        final List<Map<String, Object>> sent = new ArrayList<>(List.of(
            event(EventKind.VERTEX_UPDATE, 1, null, null),
            event(EventKind.PROPERTY_UPDATE, 2, "speed", 42),
            event(EventKind.PROPERTY_UPDATE, 3, "odometer", 1L << 40),
            event(EventKind.PROPERTY_UPDATE, 4, "load", 0.75),
            event(EventKind.PROPERTY_UPDATE, 5, "open", true),
            event(EventKind.PROPERTY_UPDATE, 6, "name", "Ünter den Linden"),
            event(EventKind.PROPERTY_UPDATE, 7, "gone", null)));
        final byte[] wire = ViewEventFrames.events(sent);
        assertEquals(sent, ViewEventFrames.events(new UnsafeBuffer(wire), "city"));
        // Any other type travels as its string.
        final byte[] list = ViewEventFrames.events(List.of(event(EventKind.PROPERTY_UPDATE, 8, "tags",
            Arrays.asList("a", "b"))));
        assertEquals("[a, b]", ViewEventFrames.events(new UnsafeBuffer(list), "city").get(0).get("value"));
    }

    @Test
    void kindsTravelAsAMaskAndNoKindIsRefused() {
        final Set<EventKind> kinds = Set.of(EventKind.EDGE_UPDATE, EventKind.PROPERTY_READ);
        assertEquals(kinds, ViewEventFrames.kinds(ViewEventFrames.mask(kinds)));
        final IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
            () -> ViewEventFrames.kinds(0));
        assertTrue(none.getMessage().contains("no event kind"), none.getMessage());
    }
}
