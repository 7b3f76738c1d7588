package io.pragh.durability;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Names and lists the files of a machine's data directory: log segments and snapshots, each named by position. */
final class Segments {
    private static final Logger LOG = LoggerFactory.getLogger(Segments.class);

    private static final String WAL_PREFIX = "wal-";
    private static final String WAL_SUFFIX = ".log";
    private static final String SNAPSHOT_PREFIX = "snapshot-";
    private static final String SNAPSHOT_SUFFIX = ".snap";

    private Segments() {
    }

    static Path walFile(Path dir, long start) {
        return dir.resolve(String.format("%s%020d%s", WAL_PREFIX, start, WAL_SUFFIX));
    }

    static Path snapshotFile(Path dir, long position) {
        return dir.resolve(String.format("%s%020d%s", SNAPSHOT_PREFIX, position, SNAPSHOT_SUFFIX));
    }

    /** Start positions of the log segments, ascending. */
    static List<Long> walStarts(Path dir) throws IOException {
        return positions(dir, WAL_PREFIX, WAL_SUFFIX);
    }

    /** Positions of complete snapshots, ascending. */
    static List<Long> snapshots(Path dir) throws IOException {
        return positions(dir, SNAPSHOT_PREFIX, SNAPSHOT_SUFFIX);
    }

    /**
     * Where the next record goes: just after the last byte of the log, or at the newest snapshot's position when the
     * log ends before it. A snapshot's position counts records the log had not yet written out when the snapshot
     * began, and a crash can lose those (the snapshot holds their effects); records logged after the restart must
     * still land at or after the snapshot's position, or the next recovery would skip them as covered by it.
     */
    static long endPosition(Path dir) throws IOException {
        List<Long> snaps = snapshots(dir);
        long snapshot = snaps.isEmpty() ? 0 : snaps.get(snaps.size() - 1);
        List<Long> starts = walStarts(dir);
        if (starts.isEmpty()) {
            return snapshot;
        }
        long last = starts.get(starts.size() - 1);
        return Math.max(snapshot, last + Files.size(walFile(dir, last)));
    }

    /**
     * Forces a directory's entries (files created or renamed in it) to disk. Skipped where a directory cannot be
     * opened as a file (Windows), since Java has no other way to force it there.
     */
    static void forceDirectory(Path dir) throws IOException {
        FileChannel ch;
        try {
            ch = FileChannel.open(dir, StandardOpenOption.READ);
        } catch (IOException e) {
            return;
        }
        try (ch) {
            ch.force(true);
        }
    }

    static void deleteWalBefore(Path dir, long position, long keepFrom) throws IOException {
        List<Long> starts = walStarts(dir);
        for (int i = 0; i < starts.size(); i++) {
            long start = starts.get(i);
            long end = i + 1 < starts.size() ? starts.get(i + 1) : Long.MAX_VALUE;
            if (end <= position && start < keepFrom) {
                Files.deleteIfExists(walFile(dir, start));
            }
        }
    }

    private static List<Long> positions(Path dir, String prefix, String suffix) throws IOException {
        List<Long> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString())
                .filter(n -> n.startsWith(prefix) && n.endsWith(suffix))
                .forEach(n -> {
                    String digits = n.substring(prefix.length(), n.length() - suffix.length());
                    try {
                        out.add(Long.parseLong(digits));
                    } catch (NumberFormatException e) {
                        LOG.warn("ignoring unexpected file {}", dir.resolve(n));
                    }
                });
        }
        out.sort(Long::compare);
        return out;
    }
}
