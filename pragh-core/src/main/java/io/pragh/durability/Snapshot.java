package io.pragh.durability;

import io.pragh.PraghException;
import io.pragh.store.MachineStore;
import io.pragh.store.Session;
import io.pragh.store.ValueView;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.agrona.collections.LongArrayList;

/**
 * A snapshot of the keys one machine is home to: each key's current value and version, wherever the value lives at
 * the moment, plus the log position the snapshot started at and the home's incarnation counter. Written to a
 * temporary file and renamed into place, so a snapshot file is either complete or absent.
 * <pre>
 *  | magic: long | log position: long | incarnation: long |
 *  | records: (key: long, version: long, length: int, bytes)* | end: key 0 | record count: long |
 * </pre>
 * The incarnation is what keeps versions growing across deletes once the log that held a DELETE is dropped: the
 * deleted key has no entry here, yet its next insert must start an incarnation above the deleted one. Snapshots of
 * the first format ({@link #MAGIC_V1}, without the incarnation) are still read.
 */
public final class Snapshot {
    static final long MAGIC = 0x5052414748534e32L; // "PRAGHSN2"
    static final long MAGIC_V1 = 0x5052414748534e31L; // "PRAGHSN1": no incarnation field

    /** What a snapshot starts with: the log position replay continues from, and the home's incarnation counter. */
    public record Header(long position, long incarnation) {
    }

    /** Receives a snapshot's entries during {@link #read}. */
    @FunctionalInterface
    public interface EntryVisitor {
        void visit(long key, long version, byte[] value);
    }

    private Snapshot() {
    }

    /**
     * Writes a snapshot of every key homed at {@code store}, taken from {@code position} on: updates logged after
     * that position are replayed on top of it. The store's incarnation counter is read after the caller took
     * {@code position}, so it covers every version logged before that position.
     *
     * @return the number of keys written
     */
    public static long write(Path dir, long position, MachineStore store) throws IOException {
        LongArrayList keys = new LongArrayList();
        store.keys().forEach((key, address, slot) -> keys.addLong(key));
        Path target = Segments.snapshotFile(dir, position);
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        Session session = store.newSession();
        long count = 0;
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp),
                1 << 16))) {
            out.writeLong(MAGIC);
            out.writeLong(position);
            out.writeLong(store.incarnation());
            byte[] scratch = new byte[4096];
            for (int i = 0; i < keys.size(); i++) {
                long key = keys.getLong(i);
                ValueView v = session.get(key);
                if (v == null) {
                    continue;
                }
                if (scratch.length < v.length()) {
                    scratch = new byte[v.length()];
                }
                v.buffer().getBytes(v.offset(), scratch, 0, v.length());
                out.writeLong(key);
                out.writeLong(v.version());
                out.writeInt(v.length());
                out.write(scratch, 0, v.length());
                count++;
            }
            out.writeLong(0);
            out.writeLong(count);
        }
        try (var ch = java.nio.channels.FileChannel.open(tmp, java.nio.file.StandardOpenOption.WRITE)) {
            ch.force(true);
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        // The rename must be on disk before the caller deletes the files this snapshot makes obsolete.
        Segments.forceDirectory(dir);
        return count;
    }

    /** Reads a snapshot; returns the log position it started at and the incarnation it kept (0 in the first format). */
    public static Header read(Path file, EntryVisitor visitor) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
             DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
            long magic = in.readLong();
            if (magic != MAGIC && magic != MAGIC_V1) {
                throw new PraghException("snapshot " + file + " does not start with the Pragh snapshot magic");
            }
            long position = in.readLong();
            long incarnation = magic == MAGIC ? in.readLong() : 0;
            long count = 0;
            while (true) {
                long key = in.readLong();
                if (key == 0) {
                    break;
                }
                long version = in.readLong();
                int length = in.readInt();
                if (length < 0 || length > LogRecord.MAX_BODY) {
                    throw new PraghException("snapshot " + file + " has a value of " + length + " bytes for key " + key
                        + ": corrupt");
                }
                byte[] value = new byte[length];
                in.readFully(value);
                visitor.visit(key, version, value);
                count++;
            }
            if (in.readLong() != count) {
                throw new PraghException("snapshot " + file + " ends with a record count that does not match");
            }
            return new Header(position, incarnation);
        } catch (EOFException e) {
            throw new PraghException("snapshot " + file + " is truncated", e);
        }
    }

    /**
     * Deletes the snapshots older than {@code position}, and the temporary files of snapshots a crash interrupted
     * (the caller writes no other snapshot meanwhile): nothing else would ever remove those.
     */
    static void deleteOlderThan(Path dir, long position) throws IOException {
        for (long p : Segments.snapshots(dir)) {
            if (p < position) {
                Files.deleteIfExists(Segments.snapshotFile(dir, p));
            }
        }
        try (var files = Files.newDirectoryStream(dir, "snapshot-*.snap.tmp")) {
            for (Path tmp : files) {
                Files.deleteIfExists(tmp);
            }
        }
    }

}
