/**
 * Event handlers on graph views (Concerto's, issue 17): {@link io.pragh.gremlin.events.ViewEvents} keeps durable
 * subscriptions (a view and the {@link io.pragh.gremlin.events.EventKind}s wanted) and runs the Java
 * {@link io.pragh.gremlin.events.ViewHandler}s an embedder hands them; remote clients stream a view's events with
 * {@code g.call("pragh.subscribe", [view: ...])}.
 *
 * <p>The path of one event: a tap on each machine of this process ({@code EventTaps}, a core
 * {@code CommitObserver}) sees an update where it commits and copies it to a lane ({@code EventLanes}): a bounded
 * queue and a thread of the event pool, chosen by the vertex id, so one vertex's events keep their order. The lane
 * looks the vertex's view bits up (one GET at its home, see the view package) and calls the handlers of the views it
 * is in. A full lane drops and counts: the store's threads never wait for handler code.
 *
 * <p>May depend on core's store, the provider's storage, structure and view packages, and TinkerPop.
 */
@MayDependOn({"io.pragh.gremlin.storage", "io.pragh.gremlin.structure", "io.pragh.gremlin.view", "io.pragh.keys",
    "io.pragh.store", "org.agrona..", "org.apache.tinkerpop..", "org.slf4j.."})
package io.pragh.gremlin.events;

import io.pragh.MayDependOn;
