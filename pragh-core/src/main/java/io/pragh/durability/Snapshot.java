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
 * the moment, plus the log position the snapshot started at. Written to a temporary file and renamed into place,
 * so a snapshot file is either complete or absent.
 * <pre>
 *  | magic: long | log position: long | records: (key: long, version: long, length: int, bytes)* | end: key 0 |
 *  | record count: long |
 * </pre>
 */
public final class Snapshot {
    static final long MAGIC = 0x5052414748534e31L; // "PRAGHSN1"

    /** Receives a snapshot's entries during {@link #read}. */
    @FunctionalInterface
    public interface EntryVisitor {
        void visit(long key, long version, byte[] value);
    }

    private Snapshot() {
    }

    /**
     * Writes a snapshot of every key homed at {@code store}, taken from {@code position} on: updates logged after
     * that position are replayed on top of it.
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
        return count;
    }

    /** Reads a snapshot; returns the log position it started at. */
    public static long read(Path file, EntryVisitor visitor) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
             DataInputStream in = new DataInputStream(new BufferedInputStream(raw, 1 << 16))) {
            if (in.readLong() != MAGIC) {
                throw new PraghException("snapshot " + file + " does not start with the Pragh snapshot magic");
            }
            long position = in.readLong();
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
            return position;
        } catch (EOFException e) {
            throw new PraghException("snapshot " + file + " is truncated", e);
        }
    }

    static void deleteOlderThan(Path dir, long position) throws IOException {
        for (long p : Segments.snapshots(dir)) {
            if (p < position) {
                Files.deleteIfExists(Segments.snapshotFile(dir, p));
            }
        }
    }

}
