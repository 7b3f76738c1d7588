package io.pragh.gremlin.storage;

/**
 * A read-modify-write of one stored value, run where the value lives: given the current bytes (null when the key
 * has no value) and the caller's argument, the new bytes (null to delete the key). Must be a pure function of its
 * inputs: the store may run it again when it loses a race with a concurrent writer.
 *
 * <p>Example: {@code RecordUpdate append = (cur, arg) -> cur == null ? arg : concat(cur, arg);}
 */
@FunctionalInterface
public interface RecordUpdate {
    byte[] apply(byte[] current, byte[] argument);
}
