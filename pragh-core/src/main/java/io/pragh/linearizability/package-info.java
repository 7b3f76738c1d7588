/**
 * A per-key linearizability checker by search, and the histories it checks: {@link Operation}s recorded by
 * {@link History}, the store's sequential specification ({@link ValueModel}: PUT, APPEND, DELETE and GET of one
 * key), and {@link LinearizabilityChecker}, which looks for a linearization of each key's operations (Wing and
 * Gong's search with Lowe's memoization, as Porcupine and Knossos do) and, when there is none, narrows the history
 * to a minimal window that still has none.
 *
 * <p>Why in pragh-core's main code rather than a test jar: the core's consistency tests and pragh-bench's soak
 * benchmark ({@code ./pragh bench soak}) both check histories with it, and a user testing a deployment can check the
 * histories their own clients record. Nothing here knows the store: this package depends on the JDK only.
 */
@MayDependOn({})
package io.pragh.linearizability;

import io.pragh.MayDependOn;
