/**
 * Graph views (Concerto's named subgraphs, issue 17): {@link io.pragh.gremlin.view.PraghViews} creates, fills,
 * combines (union, intersection, difference) and drops views and keeps their property space;
 * {@code withView} constrains a traversal source to a view (a SubgraphStrategy with a membership criterion); the
 * {@code pragh.view} service manages views from Gremlin ({@code g.call("pragh.view", [...])}).
 *
 * <p>Why membership bits homed with the member: a vertex's views are one 64-bit record under a key of the vertex
 * ({@link io.pragh.gremlin.storage.ViewRecords}), so "which views hold this vertex" (what a view filter, and later
 * an event handler, asks on every touch) is one GET at the vertex's home, O(1) whatever the number or size of
 * views, and it moves with the vertex's other keys under migration. A member set per view would make that lookup
 * a remote probe of a large set, and its updates a hot spot. The price: at most 64 views per graph, and listing a
 * view's members scans the membership records (set operations and drop are scans too, run rarely).
 * Membership and view properties are ordinary store updates (mutators), so a durable cluster's log and recovery
 * cover them. Edges are members of their own too, in one record per out-vertex homed with it (the edge's home):
 * an edge is in a view when it is an edge member or both its ends are members.
 *
 * <p>May depend on the provider's structure and storage packages and TinkerPop; nothing in structure depends on it.
 */
@MayDependOn({"io.pragh.gremlin.storage", "io.pragh.gremlin.structure", "io.pragh.keys", "org.apache.tinkerpop.."})
package io.pragh.gremlin.view;

import io.pragh.MayDependOn;
