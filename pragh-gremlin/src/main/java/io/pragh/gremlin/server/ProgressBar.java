package io.pragh.gremlin.server;

import java.io.PrintStream;

/**
 * A one-line progress bar on a terminal stream, redrawn at most every 200 ms: fraction done, a count of items, their
 * rate and the time left at the rate so far.
 *
 * <p>Example: {@code ProgressBar bar = new ProgressBar(System.err, "loading g.json", size); bar.update(done, items); bar.finish(items);}
 */
public final class ProgressBar {
    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 200_000_000L;

    private final PrintStream out;
    private final String title;
    private final long total;
    private final long startNanos = System.nanoTime();
    private long lastDraw;

    public ProgressBar(final PrintStream out, final String title, final long total) {
        this.out = out;
        this.title = title;
        this.total = Math.max(1, total);
    }

    /** Records progress; redraws if enough time has passed. */
    public void update(final long done, final long items) {
        final long now = System.nanoTime();
        if (now - lastDraw >= REDRAW_NANOS) {
            lastDraw = now;
            draw(done, items, now);
        }
    }

    public void finish(final long items) {
        draw(total, items, System.nanoTime());
        out.println();
    }

    private static String duration(final double seconds) {
        final long s = Math.round(seconds);
        return s < 60 ? s + " s" : s < 3600 ? String.format("%d:%02d", s / 60, s % 60)
            : String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60);
    }

    private void draw(final long done, final long items, final long now) {
        final double fraction = Math.min(1.0, (double) done / total);
        final int filled = (int) (fraction * WIDTH);
        final double seconds = Math.max(1e-9, (now - startNanos) / 1e9);
        final String left = fraction <= 0 || fraction >= 1 ? "" : String.format("  ETA %s", duration(seconds * (1 - fraction) / fraction));
        out.printf("\r%s [%s%s] %3d%%  %,d elements  %,.0f/s%s ", title, "#".repeat(filled), ".".repeat(WIDTH - filled),
            (int) (fraction * 100), items, items / seconds, left);
        out.flush();
    }
}
