package io.pragh.rdf.cli;

import io.pragh.gremlin.load.EdgeBulkLoad;
import io.pragh.gremlin.server.ProgressBar;

import java.io.PrintStream;

/**
 * One progress bar per phase of a load on {@code out} (parsing, then each writing phase), a new one whenever the phase
 * or its total changes.
 *
 * <p>Example: {@code PhaseBars bars = new PhaseBars(System.err, "lubm-1.nt"); RdfLoad.into(rdf).progress(bars).load(f); bars.finish();}
 */
final class PhaseBars implements EdgeBulkLoad.Progress {
    private final PrintStream out;
    private final String file;
    private String phase;
    private long total;
    private ProgressBar bar;

    PhaseBars(final PrintStream out, final String file) {
        this.out = out;
        this.file = file;
    }

    @Override
    public void update(final String p, final long done, final long t) {
        if (!p.equals(phase) || t != total) {
            finish();
            phase = p;
            total = t;
            bar = new ProgressBar(out, p + " " + file, t);
        }
        bar.update(done, done);
    }

    void finish() {
        if (bar != null) {
            bar.finish(total);
            bar = null;
        }
    }
}
