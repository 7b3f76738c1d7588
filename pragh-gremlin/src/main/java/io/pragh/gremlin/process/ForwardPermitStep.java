package io.pragh.gremlin.process;

import org.apache.tinkerpop.gremlin.process.remote.traversal.step.map.RemoteStep;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.process.traversal.Traverser;
import org.apache.tinkerpop.gremlin.process.traversal.step.util.AbstractStep;

import java.lang.ref.Cleaner;
import java.util.NoSuchElementException;
import java.util.function.UnaryOperator;

/**
 * The step after the {@link RemoteStep} of a forwarded traversal: passes the home's traversers through unchanged and
 * returns the forwarding permit {@link PraghRoutingStrategy} took, exactly once, when the traversal ends for any
 * reason: its results exhausted, an error from the home or from sending to it, or the traversal closed before its end
 * ({@code Traversal.close()}: TinkerPop calls it on exhaustion, Gremlin Server on an error, a timeout or an
 * interrupt, a client that stops early should). A traversal dropped without being iterated or closed returns its
 * permit when it is collected. {@link RemoteStep} is final, so the permit rides on a step of its own.
 *
 * A failure of the forward is handed to the router first ({@code TraversalRouter.forwardFailed}), which may name
 * the machine that was lost.
 *
 * <p>Example: {@code t.addStep(new RemoteStep<>(t, c));
 * t.addStep(new ForwardPermitStep<>(t, () -> router.forwardEnded(h), e -> router.forwardFailed(h, e)));}
 */
final class ForwardPermitStep<S> extends AbstractStep<S, S> implements AutoCloseable {
    private static final Cleaner CLEANER = Cleaner.create();

    /** Runs the release at most once however many end paths (and clones of this step, which share it) reach it. */
    private final Cleaner.Cleanable permit;

    private final UnaryOperator<RuntimeException> onFailure;

    /**
     * @param release   returns the permit; must not refer to this step or its traversal (it also runs on collection)
     * @param onFailure what to throw for a failure of the forward (not its end of results)
     */
    ForwardPermitStep(final Traversal.Admin traversal, final Runnable release,
                      final UnaryOperator<RuntimeException> onFailure) {
        super(traversal);
        this.permit = CLEANER.register(this, release);
        this.onFailure = onFailure;
    }

    @Override
    protected Traverser.Admin<S> processNextStart() {
        try {
            return starts.next();
        } catch (NoSuchElementException e) {
            permit.clean();
            throw e;
        } catch (RuntimeException e) {
            permit.clean();
            throw onFailure.apply(e);
        } catch (Error e) {
            permit.clean();
            throw e;
        }
    }

    @Override
    public void close() {
        permit.clean();
    }
}
