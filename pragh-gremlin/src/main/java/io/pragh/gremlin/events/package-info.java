/**
 * Event handlers on graph views (Concerto's, issue 17): {@link io.pragh.gremlin.events.ViewEvents} keeps durable
 * subscriptions (a view and the {@link io.pragh.gremlin.events.EventKind}s wanted) and runs the Java
 * {@link io.pragh.gremlin.events.ViewHandler}s an embedder hands them; remote clients stream a view's events with
 * {@code g.call("pragh.subscribe", [view: ...])}, or poll a stream over the client port (its server extension lives
 * in the distributed package, on {@code ViewEvents.openPolled}).
 *
 * <p>The path of one event: a tap on each machine of this process ({@code EventTaps}, a core
 * {@code CommitObserver}) sees an update where it commits, reads the vertex's view bits as of that moment from the
 * process's mirror of the membership records ({@code MembershipMirror}, which the taps keep in commit order), and
 * copies the update of a member to a lane ({@code EventLanes}): a bounded queue and a thread of the event pool,
 * chosen by the vertex id, so one vertex's events keep their order. The lane calls the handlers of the views the
 * vertex was in. A full lane drops and counts: the store's threads never wait for handler code. With
 * {@code -Dpragh.events.ordering=element} the pool is {@code EventStrands} instead: workers take any vertex's strand that
 * is ready, so an event waits only behind earlier events of its own strand, not behind a whole lane.
 *
 * <p>May depend on core's store, the provider's storage, structure and view packages, and TinkerPop.
 */
@MayDependOn({"io.pragh.gremlin.storage", "io.pragh.gremlin.structure", "io.pragh.gremlin.view", "io.pragh.keys",
    "io.pragh.store", "org.agrona..", "org.apache.tinkerpop..", "org.slf4j.."})
package io.pragh.gremlin.events;

import io.pragh.MayDependOn;
