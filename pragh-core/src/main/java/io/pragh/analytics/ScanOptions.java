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
 * @param maxGapBytes largest run of bytes no wanted value occupies that one READ copies between two wanted ones
 *                   (default 4 KiB): a wider gap ends the chunk. A BFS level wants a scattered subset of the lists,
 *                   and without this bound its chunks copied 3x the bytes it needed (35.4 MB for 11.8 MB at ratio
 *                   0.75 of {@code ./pragh bench farmem --scale 16}), the copy being the chunked path's main cost
 */
public record ScanOptions(FarReads mode, int chunkBytes, int depth, int maxGapBytes) {
    public static final int DEFAULT_CHUNK_BYTES = 256 << 10;
    public static final int DEFAULT_DEPTH = 4;
    public static final int DEFAULT_MAX_GAP_BYTES = 4 << 10;

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
        if (maxGapBytes < 0) {
            throw new IllegalArgumentException("maxGapBytes must be >= 0, got " + maxGapBytes);
        }
    }

    /** With the default gap bound ({@value #DEFAULT_MAX_GAP_BYTES} bytes). */
    public ScanOptions(FarReads mode, int chunkBytes, int depth) {
        this(mode, chunkBytes, depth, DEFAULT_MAX_GAP_BYTES);
    }

    public static ScanOptions defaults() {
        return new ScanOptions(FarReads.CHUNKED, DEFAULT_CHUNK_BYTES, DEFAULT_DEPTH, DEFAULT_MAX_GAP_BYTES);
    }

    public ScanOptions withMode(FarReads m) {
        return new ScanOptions(m, chunkBytes, depth, maxGapBytes);
    }

    public ScanOptions withChunkBytes(int bytes) {
        return new ScanOptions(mode, bytes, depth, maxGapBytes);
    }

    /** Chunks end at a run of more than {@code bytes} bytes that no wanted value occupies. */
    public ScanOptions withMaxGapBytes(int bytes) {
        return new ScanOptions(mode, chunkBytes, depth, bytes);
    }
}
