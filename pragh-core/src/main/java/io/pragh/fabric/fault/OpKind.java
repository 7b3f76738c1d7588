package io.pragh.fabric.fault;

/** What crosses a fabric, as a fault rule selects it. */
public enum OpKind {
    /** A one-sided READ. */
    READ,
    /** A one-sided WRITE. */
    WRITE,
    /** A one-sided compare-and-swap. */
    CAS,
    /** A two-sided message. */
    MESSAGE;

    final int bit() {
        return 1 << ordinal();
    }
}
