package io.pragh.gremlin.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.LongConsumer;

/**
 * Reads an edge list into an {@link EdgeBuffer}: one edge per line, {@code source target [label]}, vertex ids
 * decimal integers in 0..2^44-1, fields separated by spaces, tabs or commas; blank lines and lines starting with
 * {@code #} or {@code %} are skipped. It parses bytes, not strings (a label is made a string only when it differs
 * from the line before's), so it reads some hundreds of MB/s.
 *
 * <p>Bad input stops it with an {@link IOException} naming the file, the line and what was wrong, before anything
 * is loaded: a load parses the whole file first.
 *
 * <p>Example: {@code EdgeBuffer edges = EdgeListParser.parse(Path.of("edges.txt"), bytes -> bar.update(bytes));}
 */
public final class EdgeListParser {
    /** Label of edges whose line names none. */
    public static final String DEFAULT_LABEL = "edge";
    private static final int BUFFER = 1 << 20;
    /** Longest label accepted (bytes). */
    private static final int MAX_LABEL_BYTES = 256;

    private final String source;
    private final EdgeBuffer edges;
    private long line = 1;
    private int field;
    private long number;
    private int digits;
    private boolean comment;
    private boolean lineStarted;
    private final long[] ids = new long[2];
    private final byte[] labelBytes = new byte[MAX_LABEL_BYTES];
    private int labelLength;
    private byte[] lastLabel = new byte[0];
    private int lastLabelIndex = -1;
    private int defaultLabelIndex = -1;
    /** The buffer being parsed and where the current line starts in it (0 when it started in an earlier one). */
    private byte[] buf = new byte[0];
    private int bufLength;
    private int lineStart;

    private EdgeListParser(final String source, final EdgeBuffer edges) {
        this.source = source;
        this.edges = edges;
    }

    /** Parses {@code file}, reporting bytes read to {@code progress} now and then. */
    public static EdgeBuffer parse(final Path file, final LongConsumer progress) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException("cannot load " + file + ": no such file");
        }
        try (InputStream in = Files.newInputStream(file)) {
            return parse(in, file.toString(), new EdgeBuffer(), progress);
        }
    }

    /** Parses {@code in} (named {@code source} in errors) into {@code into}. */
    public static EdgeBuffer parse(final InputStream in, final String source, final EdgeBuffer into,
                                   final LongConsumer progress) throws IOException {
        final EdgeListParser p = new EdgeListParser(source, into);
        final byte[] buf = new byte[BUFFER];
        long read = 0;
        for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
            p.feed(buf, n);
            read += n;
            progress.accept(read);
        }
        p.endLine();
        return into;
    }

    private void feed(final byte[] buf, final int n) throws IOException {
        this.buf = buf;
        this.bufLength = n;
        lineStart = 0;
        for (int i = 0; i < n; i++) {
            final byte b = buf[i];
            if (b == '\n') {
                endLine();
                line++;
                lineStart = i + 1;
            } else if (comment) {
                continue;
            } else if (field < 2 && b >= '0' && b <= '9') {
                if (++digits > 15) {
                    throw bad("vertex id has more than 15 digits (ids are 0.." + io.pragh.gremlin.storage.GraphKeys.MAX_ID + ")");
                }
                number = number * 10 + (b - '0');
                lineStarted = true;
            } else if (b == ' ' || b == '\t' || b == ',' || b == '\r') {
                endField();
            } else if (!lineStarted && (b == '#' || b == '%')) {
                comment = true;
            } else if (field == 2) {
                if (labelLength == MAX_LABEL_BYTES) {
                    throw bad("label longer than " + MAX_LABEL_BYTES + " bytes");
                }
                labelBytes[labelLength++] = b;
                lineStarted = true;
            } else if (field > 2) {
                throw bad("more than three fields (expected 'source target [label]')");
            } else {
                throw bad("vertex id is not a non-negative integer (unexpected '" + (char) (b & 0xff) + "')");
            }
        }
    }

    private void endField() throws IOException {
        if (field < 2 && digits > 0) {
            ids[field++] = number;
            number = 0;
            digits = 0;
        } else if (field == 2 && labelLength > 0) {
            field = 3;
        }
    }

    private void endLine() throws IOException {
        endField();
        if (!comment && lineStarted) {
            if (field < 2) {
                throw bad("expected 'source target [label]', got " + field + " field" + (field == 1 ? "" : "s"));
            }
            try {
                edges.add(ids[0], ids[1], labelLength == 0 ? defaultLabel() : label());
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw bad(e.getMessage());
            }
        }
        field = 0;
        number = 0;
        digits = 0;
        comment = false;
        lineStarted = false;
        labelLength = 0;
    }

    private int defaultLabel() {
        if (defaultLabelIndex < 0) {
            defaultLabelIndex = edges.labelIndex(DEFAULT_LABEL);
        }
        return defaultLabelIndex;
    }

    private int label() {
        if (lastLabelIndex < 0 || !java.util.Arrays.equals(labelBytes, 0, labelLength, lastLabel, 0, lastLabel.length)) {
            lastLabel = java.util.Arrays.copyOf(labelBytes, labelLength);
            lastLabelIndex = edges.labelIndex(new String(lastLabel, StandardCharsets.UTF_8));
        }
        return lastLabelIndex;
    }

    private IOException bad(final String what) {
        int end = lineStart;
        while (end < bufLength && buf[end] != '\n' && end - lineStart < 80) {
            end++;
        }
        final String text = new String(buf, lineStart, end - lineStart, StandardCharsets.UTF_8).strip();
        return new IOException(source + " line " + line + ": " + what + (text.isEmpty() ? "" : ", got '" + text + "'"));
    }
}
