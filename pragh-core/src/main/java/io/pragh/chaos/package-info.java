/**
 * Consistency testing of an embedded cluster under faults: {@link ChaosWorkload} runs GET, PUT, APPEND, DELETE and
 * MIGRATE from many client threads against an {@link io.pragh.embedded.EmbeddedCluster} whose machines share a
 * {@link io.pragh.fabric.fault.FaultFabric}, with the faults of a {@link FaultPlan} switched on and off as it goes,
 * and records a {@link io.pragh.linearizability.History} that {@link io.pragh.linearizability.LinearizabilityChecker}
 * then checks (a window's faults in {@code ChaosFaults}, its closing reads in {@code ChaosBarrier}, its failures in
 * {@code FailureTally}); {@link RecordingClient} records single operations for hand-written scenarios, and
 * {@link ChaosValues} makes every written value say which write produced it.
 *
 * <p>In pragh-core's main code, next to the checker and the fault fabric it uses, because both the core's
 * consistency tests and pragh-bench's soak benchmark run it. May depend on {@code io.pragh}, {@code io.pragh.embedded},
 * the core packages it drives (fabric, fault fabric, keys, migration, reclaim, store) and
 * {@code io.pragh.linearizability}.
 */
@MayDependOn({"io.pragh", "io.pragh.embedded", "io.pragh.fabric", "io.pragh.fabric.fault", "io.pragh.keys",
    "io.pragh.linearizability", "io.pragh.migration", "io.pragh.reclaim", "io.pragh.store"})
package io.pragh.chaos;

import io.pragh.MayDependOn;
