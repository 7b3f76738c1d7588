package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.GraphKeys;
import org.apache.tinkerpop.gremlin.structure.Element;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Turns whatever a client sends as an id into the long that keys carry: any integral {@link Number} (Python sends
 * small ints as 32-bit, Gremlin Server may hand over a Double 1.0), its decimal string, or an element.
 *
 * <p>Example: {@code long v = Ids.toLong(1); // also Ids.toLong("1"), Ids.toLong(1.0d)}
 */
final class Ids {
    /** Returned by {@link #toLongOrMissing} for ids that cannot name anything stored. */
    static final long MISSING = -1;

    private Ids() {
    }

    /** The id as a key's long, or {@link #MISSING} when it cannot be one (wrong type, fraction, out of range). */
    static long toLongOrMissing(final Object id) {
        final Object raw = id instanceof Element ? ((Element) id).id() : id;
        final long v;
        if (raw instanceof Long || raw instanceof Integer || raw instanceof Short || raw instanceof Byte) {
            v = ((Number) raw).longValue();
        } else if (raw instanceof Double || raw instanceof Float) {
            final double d = ((Number) raw).doubleValue();
            if (d != Math.rint(d) || Double.isInfinite(d)) {
                return MISSING;
            }
            v = (long) d;
        } else if (raw instanceof BigInteger) {
            final BigInteger b = (BigInteger) raw;
            if (b.bitLength() > 63) {
                return MISSING;
            }
            v = b.longValue();
        } else if (raw instanceof BigDecimal) {
            try {
                v = ((BigDecimal) raw).longValueExact();
            } catch (ArithmeticException e) {
                return MISSING;
            }
        } else if (raw instanceof String) {
            try {
                v = Long.parseLong(((String) raw).trim());
            } catch (NumberFormatException e) {
                return MISSING;
            }
        } else {
            return MISSING;
        }
        return v < 0 || v > GraphKeys.MAX_ID ? MISSING : v;
    }
}
