package io.pragh.durability;

import java.util.Locale;

/** When the write-ahead log forces records to disk before their updates are acknowledged. */
public enum SyncPolicy {
    /** Acknowledge once the record is written to the OS: survives a process crash, not a power loss. */
    NONE,
    /** Group commit: one fsync covers every record that arrived meanwhile; acknowledge after it. The default. */
    BATCH,
    /** One fsync per record before its acknowledgement. */
    ALWAYS;

    /** Parses a config value ({@code none | batch | always}), naming the accepted values when it is wrong. */
    public static SyncPolicy parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("sync policy '" + value + "' is not one of none, batch, always");
        }
    }
}
