package io.pragh.analytics;

/**
 * How an analytics scan reads values that are not local.
 *
 * <pre>{@code
 * ScanOptions chunked = ScanOptions.defaults();                      // 256 KiB chunks, 4 in flight per batch
 * ScanOptions swapLike = ScanOptions.defaults().withMode(ScanOptions.FarReads.ON_DEMAND);
 * }</pre>
 *
 * @param mode       {@link FarReads#CHUNKED} (default) or {@link FarReads#ON_DEMAND}
 * @param chunkBytes largest one-sided READ of a chunked scan (default 256 KiB, the size Fargraph found best for BFS)
 * @param depth      chunk READs posted together in one batch; the next batch is in flight while the current one is
 *                   computed on (default 4)
 */
public record ScanOptions(FarReads mode, int chunkBytes, int depth) {
    public static final int DEFAULT_CHUNK_BYTES = 256 << 10;
    public static final int DEFAULT_DEPTH = 4;

    /** How values on other machines are read. */
    public enum FarReads {
        /** Sorted by host and offset, coalesced into READs of up to {@code chunkBytes}, prefetched a batch ahead. */
        CHUNKED,
        /** One GET (one small READ) per value when it is needed: what a swap-based far memory does, page by page. */
        ON_DEMAND
    }

    public ScanOptions {
        if (mode == null) {
            throw new IllegalArgumentException("scan mode must be CHUNKED or ON_DEMAND, got null");
        }
        if (chunkBytes < 64 || chunkBytes > (64 << 20)) {
            throw new IllegalArgumentException("chunkBytes must be in [64, 64 MiB], got " + chunkBytes);
        }
        if (depth < 1 || depth > 64) {
            throw new IllegalArgumentException("depth must be in [1, 64], got " + depth);
        }
    }

    public static ScanOptions defaults() {
        return new ScanOptions(FarReads.CHUNKED, DEFAULT_CHUNK_BYTES, DEFAULT_DEPTH);
    }

    public ScanOptions withMode(FarReads m) {
        return new ScanOptions(m, chunkBytes, depth);
    }

    public ScanOptions withChunkBytes(int bytes) {
        return new ScanOptions(mode, bytes, depth);
    }
}
