package io.pragh.gremlin.hotspot;

import io.pragh.gremlin.events.ViewEvent;
import io.pragh.gremlin.events.ViewHandler;

import java.util.concurrent.atomic.LongAdder;

/**
 * The read counter of one watched view: a handler of the view's three read events that counts, per reading machine,
 * the GETs of its members, and how many of them read a value held by another machine (remote reads). Lane threads
 * count, the round's thread takes the counts ({@link #take}); a read counted while a take runs lands in this round
 * or the next, never in none. Reads a full lane dropped are not counted: the counts are a lower bound.
 *
 * <p>Example: {@code events.handle("pragh.hotspot.trending", counter); long[] reads = counter.take();}
 */
final class ViewReadCounter implements ViewHandler.VertexRead, ViewHandler.EdgeRead, ViewHandler.PropertyRead {
    private final LongAdder[] byReader;
    private final LongAdder remote = new LongAdder();

    ViewReadCounter(final int machines) {
        byReader = new LongAdder[machines];
        for (int m = 0; m < machines; m++) {
            byReader[m] = new LongAdder();
        }
    }

    private void count(final ViewEvent e) {
        byReader[e.machine()].increment();
        if (e.host() != e.machine()) {
            remote.increment();
        }
    }

    @Override
    public void onVertexRead(final ViewEvent e) {
        count(e);
    }

    @Override
    public void onEdgeRead(final ViewEvent e) {
        count(e);
    }

    @Override
    public void onPropertyRead(final ViewEvent e) {
        count(e);
    }

    /**
     * The counts since the last take, and zero from now on: reads per reading machine, then (last element) how many
     * of them were remote.
     */
    long[] take() {
        final long[] out = new long[byReader.length + 1];
        for (int m = 0; m < byReader.length; m++) {
            out[m] = byReader[m].sumThenReset();
        }
        out[byReader.length] = remote.sumThenReset();
        return out;
    }
}
