package io.pragh.gremlin.distributed;

import io.pragh.gremlin.events.EventKind;
import io.pragh.server.rpc.ClientProtocol;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The client-port wire format of view event subscriptions ({@link ViewEventsExtension}), both sides. Requests:
 * {@code SUBSCRIBE kinds:i32 view:utf8} (answer {@code stream:i64}), {@code POLL stream:i64 max:i32 [waitMillis:i32]} (answer
 * {@code count:i32} then per event {@code kind:i8 vid:i64 version:i64 propertyLength:i16 property:utf8 value}, a
 * property length of -1 meaning none), {@code UNSUBSCRIBE stream:i64} (empty answer), {@code HOTSPOT_READS view:utf8}
 * (answer {@code machines:i32}, then {@code machines} reads per reading machine and the remote ones, {@code i64} each:
 * the counts of the machine's process since they were last taken). A value is a tag and its
 * bytes: 0 null, 1 int, 2 long, 3 double, 4 boolean, 5 a string {@code length:i32 utf8} (any other type is sent as
 * its string). Agrona's buffers, so little-endian throughout.
 *
 * <p>Example: {@code byte[] req = ViewEventFrames.subscribe("paloAlto", Set.of(EventKind.PROPERTY_UPDATE));}
 */
final class ViewEventFrames {
    static final byte SUBSCRIBE = ClientProtocol.FIRST_EXTENSION_OP + 24;
    static final byte POLL = ClientProtocol.FIRST_EXTENSION_OP + 25;
    static final byte UNSUBSCRIBE = ClientProtocol.FIRST_EXTENSION_OP + 26;
    /** A watched view's hotspot read counts in the machine's process, taken and reset (view-driven migration). */
    static final byte HOTSPOT_READS = ClientProtocol.FIRST_EXTENSION_OP + 27;

    private ViewEventFrames() {
    }

    static byte[] subscribe(final String view, final Set<EventKind> kinds) {
        final byte[] utf = view.getBytes(StandardCharsets.UTF_8);
        final ExpandableArrayBuffer b = new ExpandableArrayBuffer(5 + utf.length);
        b.putByte(0, SUBSCRIBE);
        b.putInt(1, mask(kinds));
        b.putBytes(5, utf);
        return copy(b, 5 + utf.length);
    }

    static byte[] poll(final long stream, final int max) {
        final ExpandableArrayBuffer b = new ExpandableArrayBuffer(13);
        b.putByte(0, POLL);
        b.putLong(1, stream);
        b.putInt(9, max);
        return copy(b, 13);
    }

    static byte[] poll(final long stream, final int max, final int waitMillis) {
        final ExpandableArrayBuffer b = new ExpandableArrayBuffer(17);
        b.putBytes(0, poll(stream, max));
        b.putInt(13, waitMillis);
        return copy(b, 17);
    }

    static byte[] unsubscribe(final long stream) {
        final ExpandableArrayBuffer b = new ExpandableArrayBuffer(9);
        b.putByte(0, UNSUBSCRIBE);
        b.putLong(1, stream);
        return copy(b, 9);
    }

    static byte[] hotspotReads(final String view) {
        final byte[] utf = view.getBytes(StandardCharsets.UTF_8);
        final byte[] out = new byte[1 + utf.length];
        out[0] = HOTSPOT_READS;
        System.arraycopy(utf, 0, out, 1, utf.length);
        return out;
    }

    /** A HOTSPOT_READS answer: the counts' length (machines plus the remote count) and the counts. */
    static byte[] reads(final long[] counts) {
        final ExpandableArrayBuffer b = new ExpandableArrayBuffer(4 + 8 * counts.length);
        b.putInt(0, counts.length - 1);
        for (int i = 0; i < counts.length; i++) {
            b.putLong(4 + 8 * i, counts[i]);
        }
        return copy(b, 4 + 8 * counts.length);
    }

    /** Decodes a HOTSPOT_READS answer of a cluster of {@code machines} machines, checking its size. */
    static long[] reads(final DirectBuffer b, final int machines) {
        if (b.capacity() != 4 + 8 * (machines + 1) || b.getInt(0) != machines) {
            throw new IllegalStateException("malformed HOTSPOT_READS answer of " + b.capacity() + " bytes for "
                + machines + " machines");
        }
        final long[] out = new long[machines + 1];
        for (int i = 0; i <= machines; i++) {
            out[i] = b.getLong(4 + 8 * i);
        }
        return out;
    }

    static int mask(final Set<EventKind> kinds) {
        int m = 0;
        for (final EventKind k : kinds) {
            m |= k.bit();
        }
        return m;
    }

    static Set<EventKind> kinds(final int mask) {
        final Set<EventKind> out = java.util.EnumSet.noneOf(EventKind.class);
        for (final EventKind k : EventKind.values()) {
            if ((mask & k.bit()) != 0) {
                out.add(k);
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("SUBSCRIBE names no event kind (mask " + mask + ")");
        }
        return out;
    }

    /** A POLL answer: the events as {@code ViewEvent.toMap()} gives them, view left out (the stream names it). */
    static byte[] events(final List<Map<String, Object>> events) {
        final ExpandableArrayBuffer b = new ExpandableArrayBuffer(4 + 32 * events.size());
        int at = 4;
        for (final Map<String, Object> e : events) {
            b.putByte(at, (byte) EventKind.valueOf((String) e.get("kind")).ordinal());
            b.putLong(at + 1, ((Number) e.get("vid")).longValue());
            b.putLong(at + 9, ((Number) e.get("version")).longValue());
            at += 17;
            final Object property = e.get("property");
            if (property == null) {
                b.putShort(at, (short) -1);
                at += 2;
                continue;
            }
            final byte[] name = ((String) property).getBytes(StandardCharsets.UTF_8);
            b.putShort(at, (short) name.length);
            b.putBytes(at + 2, name);
            at = value(b, at + 2 + name.length, e.get("value"));
        }
        b.putInt(0, events.size());
        return copy(b, at);
    }

    /** Decodes a POLL answer into maps {@code kind, view, vid, version} (plus {@code property, value}). */
    static List<Map<String, Object>> events(final DirectBuffer b, final String view) {
        final int n = b.getInt(0);
        final List<Map<String, Object>> out = new ArrayList<>(n);
        int at = 4;
        for (int i = 0; i < n; i++) {
            final Map<String, Object> e = new LinkedHashMap<>();
            e.put("kind", EventKind.values()[b.getByte(at)].name());
            e.put("view", view);
            e.put("vid", b.getLong(at + 1));
            e.put("version", b.getLong(at + 9));
            at += 17;
            final short nameLength = b.getShort(at);
            at += 2;
            if (nameLength >= 0) {
                e.put("property", b.getStringWithoutLengthUtf8(at, nameLength));
                at += nameLength;
                final byte tag = b.getByte(at++);
                switch (tag) {
                    case 0 -> e.put("value", null);
                    case 1 -> { e.put("value", b.getInt(at)); at += 4; }
                    case 2 -> { e.put("value", b.getLong(at)); at += 8; }
                    case 3 -> { e.put("value", b.getDouble(at)); at += 8; }
                    case 4 -> e.put("value", b.getByte(at++) != 0);
                    case 5 -> {
                        final int len = b.getInt(at);
                        e.put("value", b.getStringWithoutLengthUtf8(at + 4, len));
                        at += 4 + len;
                    }
                    default -> throw new IllegalStateException("malformed POLL answer: value tag " + tag);
                }
            }
            out.add(e);
        }
        return out;
    }

    private static int value(final ExpandableArrayBuffer b, final int at, final Object v) {
        final int tag = v == null ? 0 : v instanceof Integer ? 1 : v instanceof Long ? 2 : v instanceof Double ? 3
            : v instanceof Boolean ? 4 : 5;
        b.putByte(at, (byte) tag);
        switch (tag) {
            case 0:
                return at + 1;
            case 1:
                b.putInt(at + 1, (Integer) v);
                return at + 5;
            case 2:
                b.putLong(at + 1, (Long) v);
                return at + 9;
            case 3:
                b.putDouble(at + 1, (Double) v);
                return at + 9;
            case 4:
                b.putByte(at + 1, (byte) ((Boolean) v ? 1 : 0));
                return at + 2;
            default:
                final byte[] utf = v.toString().getBytes(StandardCharsets.UTF_8);
                b.putInt(at + 1, utf.length);
                b.putBytes(at + 5, utf);
                return at + 5 + utf.length;
        }
    }

    private static byte[] copy(final ExpandableArrayBuffer b, final int length) {
        final byte[] out = new byte[length];
        b.getBytes(0, out);
        return out;
    }
}
