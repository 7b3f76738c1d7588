package io.pragh.gremlin.structure;

import io.pragh.gremlin.storage.GraphMutations;
import io.pragh.gremlin.storage.RecordUpdate;
import io.pragh.store.ValueMutator;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Runs a {@link RecordUpdate} as a core {@link ValueMutator}. The store asks for the new length and then for the
 * bytes; the update is computed once in {@link #newLength} and kept per thread for the {@link #write} that follows
 * with the same inputs (recomputed if the inputs differ, so a store that interleaves calls still gets right bytes).
 * Record updates decode and re-encode their record: they are for property and removal paths, not the hot GET path.
 *
 * <p>Example: {@code MutatorAdapter.registerAll(builder::mutator); // every GraphMutations id with its update}
 */
public final class MutatorAdapter implements ValueMutator {
    private static final class Last {
        DirectBuffer cur;
        int curOff;
        int curLen;
        DirectBuffer arg;
        int argOff;
        int argLen;
        byte[] result;
    }

    private final RecordUpdate update;
    private final ThreadLocal<Last> last = ThreadLocal.withInitial(Last::new);

    MutatorAdapter(final RecordUpdate update) {
        this.update = update;
    }

    /** Hands every provider mutator of {@link GraphMutations} to {@code register}, with its id. */
    public static void registerAll(final java.util.function.ObjIntConsumer<ValueMutator> register) {
        final int[] ids = GraphMutations.ids();
        final RecordUpdate[] updates = GraphMutations.updates();
        for (int i = 0; i < ids.length; i++) {
            register.accept(new MutatorAdapter(updates[i]), ids[i]);
        }
    }

    @Override
    public int newLength(final DirectBuffer cur, final int curOff, final int curLen, final DirectBuffer arg,
                         final int argOff, final int argLen) {
        final Last l = last.get();
        l.result = compute(cur, curOff, curLen, arg, argOff, argLen);
        l.cur = cur;
        l.curOff = curOff;
        l.curLen = curLen;
        l.arg = arg;
        l.argOff = argOff;
        l.argLen = argLen;
        return l.result == null ? DELETE : l.result.length;
    }

    @Override
    public void write(final DirectBuffer cur, final int curOff, final int curLen, final DirectBuffer arg,
                      final int argOff, final int argLen, final MutableDirectBuffer dst, final int dstOff) {
        final Last l = last.get();
        final byte[] result = l.cur == cur && l.curOff == curOff && l.curLen == curLen && l.arg == arg
            && l.argOff == argOff && l.argLen == argLen ? l.result : compute(cur, curOff, curLen, arg, argOff, argLen);
        l.cur = null;
        l.arg = null;
        l.result = null;
        if (result != null) {
            dst.putBytes(dstOff, result);
        }
    }

    private byte[] compute(final DirectBuffer cur, final int curOff, final int curLen, final DirectBuffer arg,
                           final int argOff, final int argLen) {
        byte[] current = null;
        if (curLen >= 0) {
            current = new byte[curLen];
            cur.getBytes(curOff, current);
        }
        final byte[] argument = new byte[argLen];
        arg.getBytes(argOff, argument);
        return update.apply(current, argument);
    }
}
