/**
 * Consistency testing of an embedded cluster under faults: {@link ChaosWorkload} runs GET, PUT, APPEND, DELETE and
 * MIGRATE from many client threads against an {@link io.pragh.cluster.EmbeddedCluster} whose machines share a
 * {@link io.pragh.fabric.fault.FaultFabric}, with the faults of a {@link FaultPlan} switched on and off as it goes,
 * and records a {@link io.pragh.linearizability.History} that {@link io.pragh.linearizability.LinearizabilityChecker}
 * then checks (a window's faults in {@code ChaosFaults}, its closing reads in {@code ChaosBarrier}, its failures in
 * {@code FailureTally}); {@link RecordingClient} records single operations for hand-written scenarios, and
 * {@link ChaosValues} makes every written value say which write produced it.
 *
 * <p>In pragh-core's main code, next to the checker and the fault fabric it uses, because both the core's
 * consistency tests and pragh-bench's soak benchmark run it. May depend on {@code io.pragh.cluster},
 * {@code io.pragh.fabric.fault}, {@code io.pragh.linearizability} and the store's public API.
 */
package io.pragh.chaos;
