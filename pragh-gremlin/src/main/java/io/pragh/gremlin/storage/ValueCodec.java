package io.pragh.gremlin.storage;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The byte form of a property value: one tag byte, then a payload whose length the tag determines. Scalars, strings,
 * UUIDs, big numbers, dates, durations, lists, sets and maps have compact tagged forms that keep their exact Java
 * type (an {@code Integer} reads back as an {@code Integer}, never as a {@code Long}); any other
 * {@link Serializable} value (arrays, user classes) falls back to Java serialization. A value that is neither is
 * refused with an {@link IllegalArgumentException} naming its class, before anything is written.
 *
 * <p>Example: {@code byte[] b = ValueCodec.encode(29); Object v = ValueCodec.decode(b); // Integer 29}
 */
public final class ValueCodec {
    static final int NULL = 0;
    static final int FALSE = 1;
    static final int TRUE = 2;
    static final int BYTE = 3;
    static final int SHORT = 4;
    static final int INT = 5;
    static final int LONG = 6;
    static final int FLOAT = 7;
    static final int DOUBLE = 8;
    static final int STRING = 9;
    static final int CHAR = 10;
    static final int UUID_TAG = 11;
    static final int BIG_INTEGER = 12;
    static final int BIG_DECIMAL = 13;
    static final int LIST = 14;
    static final int SET = 15;
    static final int MAP = 16;
    static final int DATE = 17;
    static final int OFFSET_DATE_TIME = 18;
    static final int DURATION = 19;
    static final int INSTANT = 20;
    static final int LOCAL_DATE = 21;
    static final int LOCAL_DATE_TIME = 22;
    static final int BYTES = 23;
    static final int SERIALIZED = 63;

    private ValueCodec() {
    }

    /** The encoded form of {@code value} as a fresh array. */
    public static byte[] encode(final Object value) {
        final ByteWriter w = new ByteWriter(16);
        write(w, value);
        return w.toByteArray();
    }

    /** The value encoded in all of {@code bytes}. */
    public static Object decode(final byte[] bytes) {
        final ByteReader r = new ByteReader(bytes);
        final Object v = read(r);
        if (r.hasRemaining()) {
            throw new CorruptRecordException("value has trailing bytes after position " + r.position() + " of " + bytes.length);
        }
        return v;
    }

    public static void write(final ByteWriter w, final Object value) {
        if (value == null) {
            w.putByte(NULL);
        } else if (value instanceof Boolean) {
            w.putByte((Boolean) value ? TRUE : FALSE);
        } else if (value instanceof Byte) {
            w.putByte(BYTE).putByte((Byte) value);
        } else if (value instanceof Short) {
            w.putByte(SHORT).putShort((Short) value);
        } else if (value instanceof Integer) {
            w.putByte(INT).putInt((Integer) value);
        } else if (value instanceof Long) {
            w.putByte(LONG).putLong((Long) value);
        } else if (value instanceof Float) {
            w.putByte(FLOAT).putInt(Float.floatToRawIntBits((Float) value));
        } else if (value instanceof Double) {
            w.putByte(DOUBLE).putLong(Double.doubleToRawLongBits((Double) value));
        } else if (value instanceof String) {
            w.putByte(STRING);
            putSized(w, ((String) value).getBytes(StandardCharsets.UTF_8));
        } else if (value instanceof Character) {
            w.putByte(CHAR).putShort((Character) value);
        } else if (value instanceof UUID) {
            final UUID u = (UUID) value;
            w.putByte(UUID_TAG).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits());
        } else if (value instanceof BigInteger) {
            w.putByte(BIG_INTEGER);
            putSized(w, ((BigInteger) value).toByteArray());
        } else if (value instanceof BigDecimal) {
            final BigDecimal d = (BigDecimal) value;
            w.putByte(BIG_DECIMAL).putInt(d.scale());
            putSized(w, d.unscaledValue().toByteArray());
        } else if (value instanceof List) {
            writeAll(w, LIST, (List<?>) value);
        } else if (value instanceof Set) {
            writeAll(w, SET, (Set<?>) value);
        } else if (value instanceof Map) {
            final Map<?, ?> m = (Map<?, ?>) value;
            w.putByte(MAP).putInt(m.size());
            for (final Map.Entry<?, ?> e : m.entrySet()) {
                write(w, e.getKey());
                write(w, e.getValue());
            }
        } else if (value instanceof OffsetDateTime) {
            final OffsetDateTime t = (OffsetDateTime) value;
            w.putByte(OFFSET_DATE_TIME).putLong(t.toEpochSecond()).putInt(t.getNano()).putInt(t.getOffset().getTotalSeconds());
        } else if (value instanceof Date && value.getClass() == Date.class) {
            w.putByte(DATE).putLong(((Date) value).getTime());
        } else if (value instanceof Duration) {
            final Duration d = (Duration) value;
            w.putByte(DURATION).putLong(d.getSeconds()).putInt(d.getNano());
        } else if (value instanceof Instant) {
            final Instant t = (Instant) value;
            w.putByte(INSTANT).putLong(t.getEpochSecond()).putInt(t.getNano());
        } else if (value instanceof LocalDate) {
            w.putByte(LOCAL_DATE).putLong(((LocalDate) value).toEpochDay());
        } else if (value instanceof LocalDateTime) {
            final LocalDateTime t = (LocalDateTime) value;
            w.putByte(LOCAL_DATE_TIME).putLong(t.toLocalDate().toEpochDay()).putLong(t.toLocalTime().toNanoOfDay());
        } else if (value instanceof byte[]) {
            w.putByte(BYTES);
            putSized(w, (byte[]) value);
        } else if (value instanceof Serializable) {
            w.putByte(SERIALIZED);
            putSized(w, javaSerialize(value));
        } else {
            throw new IllegalArgumentException("property value of type " + value.getClass().getName()
                + " cannot be stored: it is neither a supported value type nor java.io.Serializable");
        }
    }

    public static Object read(final ByteReader r) {
        final int tag = r.getByte();
        switch (tag) {
            case NULL: return null;
            case FALSE: return Boolean.FALSE;
            case TRUE: return Boolean.TRUE;
            case BYTE: return (byte) r.getByte();
            case SHORT: return r.getSignedShort();
            case INT: return r.getInt();
            case LONG: return r.getLong();
            case FLOAT: return Float.intBitsToFloat(r.getInt());
            case DOUBLE: return Double.longBitsToDouble(r.getLong());
            case STRING: return new String(getSized(r), StandardCharsets.UTF_8);
            case CHAR: return (char) r.getShort();
            case UUID_TAG: return new UUID(r.getLong(), r.getLong());
            case BIG_INTEGER: return new BigInteger(getSized(r));
            case BIG_DECIMAL: {
                final int scale = r.getInt();
                return new BigDecimal(new BigInteger(getSized(r)), scale);
            }
            case LIST: return readAll(r, new ArrayList<>());
            case SET: return readAll(r, new LinkedHashSet<>());
            case MAP: {
                final int n = count(r);
                final Map<Object, Object> m = new LinkedHashMap<>();
                for (int i = 0; i < n; i++) {
                    final Object k = read(r);
                    m.put(k, read(r));
                }
                return m;
            }
            case OFFSET_DATE_TIME: {
                final long seconds = r.getLong();
                final int nanos = r.getInt();
                final ZoneOffset offset = ZoneOffset.ofTotalSeconds(r.getInt());
                return OffsetDateTime.ofInstant(Instant.ofEpochSecond(seconds, nanos), offset);
            }
            case DATE: return new Date(r.getLong());
            case DURATION: {
                final long seconds = r.getLong();
                return Duration.ofSeconds(seconds, r.getInt());
            }
            case INSTANT: {
                final long seconds = r.getLong();
                return Instant.ofEpochSecond(seconds, r.getInt());
            }
            case LOCAL_DATE: return LocalDate.ofEpochDay(r.getLong());
            case LOCAL_DATE_TIME: {
                final LocalDate day = LocalDate.ofEpochDay(r.getLong());
                return LocalDateTime.of(day, java.time.LocalTime.ofNanoOfDay(r.getLong()));
            }
            case BYTES: return getSized(r);
            case SERIALIZED: return javaDeserialize(getSized(r));
            default: throw new CorruptRecordException("unknown value tag " + tag + " at byte " + (r.position() - 1));
        }
    }

    private static void writeAll(final ByteWriter w, final int tag, final Collection<?> c) {
        w.putByte(tag).putInt(c.size());
        for (final Object o : c) {
            write(w, o);
        }
    }

    private static <C extends Collection<Object>> C readAll(final ByteReader r, final C into) {
        final int n = count(r);
        for (int i = 0; i < n; i++) {
            into.add(read(r));
        }
        return into;
    }

    private static int count(final ByteReader r) {
        final int n = r.getInt();
        if (n < 0) {
            throw new CorruptRecordException("negative element count " + n);
        }
        return n;
    }

    private static void putSized(final ByteWriter w, final byte[] b) {
        w.putInt(b.length).putBytes(b);
    }

    private static byte[] getSized(final ByteReader r) {
        return r.getBytes(r.getInt());
    }

    private static byte[] javaSerialize(final Object value) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ObjectOutputStream oos = new ObjectOutputStream(out)) {
            oos.writeObject(value);
        } catch (IOException e) {
            throw new IllegalArgumentException("property value of type " + value.getClass().getName()
                + " could not be serialized: " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    private static Object javaDeserialize(final byte[] bytes) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new CorruptRecordException("serialized property value does not deserialize: " + e);
        }
    }
}
