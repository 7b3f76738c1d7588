package io.pragh.gremlin.load;

import io.pragh.gremlin.storage.GraphKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Edges to load, in primitive arrays (16 bytes an edge, plus 2 for its label when there is more than one): out-vertex,
 * in-vertex and label, in the order added. Labels are kept as indexes into {@link #labels()}.
 *
 * <p>Example: {@code EdgeBuffer e = new EdgeBuffer(); e.add(1, 2, "knows"); e.add(2, 3, "knows");}
 */
public final class EdgeBuffer {
    private long[] out = new long[1024];
    private long[] in = new long[1024];
    /** Label index per edge; null while every edge has label 0. */
    private short[] label;
    private int size;
    private long maxVid = -1;
    private final List<String> labels = new ArrayList<>();
    private final Map<String, Integer> labelIndex = new HashMap<>();

    /** Adds an edge; {@code labelName} null means {@link EdgeListParser#DEFAULT_LABEL}. */
    public void add(final long outVid, final long inVid, final String labelName) {
        add(outVid, inVid, labelIndex(labelName == null ? EdgeListParser.DEFAULT_LABEL : labelName));
    }

    /** Adds an edge whose label is {@code labels().get(labelIndex)} (see {@link #labelIndex}). */
    public void add(final long outVid, final long inVid, final int labelIndexOfEdge) {
        checkVid(outVid);
        checkVid(inVid);
        if (labels.isEmpty()) {
            labelIndex(EdgeListParser.DEFAULT_LABEL);
        }
        if (labelIndexOfEdge < 0 || labelIndexOfEdge >= labels.size()) {
            throw new IllegalArgumentException("label index " + labelIndexOfEdge + " is not one of this buffer's "
                + labels.size() + " labels");
        }
        if (size == out.length) {
            if (size == Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("an edge buffer holds at most " + size + " edges: load in parts");
            }
            final int grown = (int) Math.min(Integer.MAX_VALUE - 8, size * 2L);
            out = Arrays.copyOf(out, grown);
            in = Arrays.copyOf(in, grown);
            if (label != null) {
                label = Arrays.copyOf(label, grown);
            }
        }
        if (labelIndexOfEdge != 0 && label == null) {
            label = new short[out.length];
        }
        if (label != null) {
            label[size] = (short) labelIndexOfEdge;
        }
        out[size] = outVid;
        in[size] = inVid;
        size++;
        maxVid = Math.max(maxVid, Math.max(outVid, inVid));
    }

    /** The index of a label name, adding it when new. */
    public int labelIndex(final String name) {
        final Integer known = labelIndex.get(name);
        if (known != null) {
            return known;
        }
        if (labels.size() > Short.MAX_VALUE) {
            throw new IllegalArgumentException("more than " + Short.MAX_VALUE + " edge labels in one load");
        }
        labels.add(name);
        labelIndex.put(name, labels.size() - 1);
        return labels.size() - 1;
    }

    private static void checkVid(final long vid) {
        if (vid < 0 || vid > GraphKeys.MAX_ID) {
            throw new IllegalArgumentException("vertex id " + vid + " is outside 0.." + GraphKeys.MAX_ID);
        }
    }

    public int size() {
        return size;
    }

    public long out(final int edge) {
        return out[edge];
    }

    public long in(final int edge) {
        return in[edge];
    }

    /** The edge's label index. */
    public int label(final int edge) {
        return label == null ? 0 : label[edge];
    }

    /** Label names by index (at least one once an edge was added). */
    public List<String> labels() {
        return labels;
    }

    /** Largest vertex id named, -1 when empty. */
    public long maxVid() {
        return maxVid;
    }

    /** Empties the buffer, keeping its arrays. */
    public void clear() {
        size = 0;
        maxVid = -1;
        label = null;
    }
}
