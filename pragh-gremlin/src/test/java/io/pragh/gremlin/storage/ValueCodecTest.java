package io.pragh.gremlin.storage;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ValueCodecTest {
    @Test
    void everyValueTypeReadsBackEqualAndOfTheSameClass() {
        final Map<String, Object> map = new LinkedHashMap<>();
        map.put("a", 1);
        map.put("b", List.of(2L, "x"));
        final List<Object> values = Arrays.asList(true, false, (byte) -3, (short) 300, 29, 29L, 0.5f, 0.4d, "marko",
            'é', UUID.randomUUID(), new BigInteger("123456789012345678901234567890"), new BigDecimal("-3.14159265358979323846"),
            List.of(1, "two", 3.0d), new LinkedHashSet<>(List.of("x", "y")), map, new Date(1_000_000L),
            OffsetDateTime.of(2024, 2, 29, 13, 45, 1, 5, ZoneOffset.ofHours(-7)), Duration.ofMillis(1234),
            Instant.ofEpochSecond(99, 7), LocalDate.of(1997, 6, 1), LocalDateTime.of(2004, 1, 2, 3, 4, 5, 6), null);
        for (final Object v : values) {
            final Object back = ValueCodec.decode(ValueCodec.encode(v));
            assertEquals(v, back, () -> "value " + v);
            if (v != null && !(v instanceof java.util.Collection) && !(v instanceof Map)) {
                assertEquals(v.getClass(), back.getClass(), () -> "value " + v);
            }
        }
        assertEquals(Integer.class, ValueCodec.decode(ValueCodec.encode(29)).getClass());
        assertTrue(ValueCodec.decode(ValueCodec.encode(Set.of(1))) instanceof Set);
    }

    @Test
    void arraysAndOtherSerializablesUseJavaSerialization() {
        assertArrayEquals(new int[] {1, 2, 3}, (int[]) ValueCodec.decode(ValueCodec.encode(new int[] {1, 2, 3})));
        assertArrayEquals(new String[] {"a", "b"}, (String[]) ValueCodec.decode(ValueCodec.encode(new String[] {"a", "b"})));
        assertArrayEquals(new byte[] {1, -1}, (byte[]) ValueCodec.decode(ValueCodec.encode(new byte[] {1, -1})));
    }

    @Test
    void aValueThatCannotBeStoredIsRefusedByClassName() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValueCodec.encode(new Object()));
        assertTrue(e.getMessage().contains("java.lang.Object"), e.getMessage());
    }

    @Test
    void truncatedOrUnknownBytesAreReportedNotMisread() {
        final byte[] full = ValueCodec.encode("marko");
        assertThrows(CorruptRecordException.class, () -> ValueCodec.decode(Arrays.copyOf(full, full.length - 1)));
        assertThrows(CorruptRecordException.class, () -> ValueCodec.decode(new byte[] {99}));
    }
}
