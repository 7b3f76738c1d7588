package io.pragh.gremlin.view;

import org.apache.tinkerpop.gremlin.structure.Edge;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code g.call("pragh.view", [op: ..., ...])}: manages views from Gremlin. Ops: {@code create} / {@code drop} /
 * {@code members} / {@code properties} ({@code name}); {@code add} / {@code remove} ({@code name}, {@code ids});
 * {@code union} / {@code intersection} / {@code difference} ({@code name} the target, {@code a}, {@code b});
 * {@code property} ({@code name}, {@code key}, {@code value}: null removes); {@code list}. Answers one map with
 * the view's name, number and member count (or the members, or the properties, or every view for {@code list}).
 *
 * <p>Example: {@code g.call("pragh.view", [op: "add", name: "paloAlto", ids: [1, 2, 3]])}
 */
final class ViewService extends CallService<Map<String, Object>> {
    static final String NAME = "pragh.view";

    private final PraghViews views;

    ViewService(final PraghViews views) {
        super(NAME);
        this.views = views;
    }

    @Override
    protected List<Map<String, Object>> answers(final Map<?, ?> params) {
        return List.of(call(params));
    }

    /** The edges whose ids parameter {@code ids} lists (TinkerPop edge ids), or an error naming the ones not found. */
    private Edge[] edges(final Map<?, ?> params) {
        final Object v = params.get("ids");
        if (!(v instanceof List) || ((List<?>) v).isEmpty()) {
            throw new IllegalArgumentException(NAME + " needs parameter 'ids' (a non-empty list of edge ids); got " + v);
        }
        final List<Edge> found = new ArrayList<>();
        views.graph().edges(((List<?>) v).toArray()).forEachRemaining(found::add);
        if (found.size() != ((List<?>) v).size()) {
            throw new IllegalArgumentException(NAME + " found " + found.size() + " of the " + ((List<?>) v).size()
                + " edges " + v);
        }
        return found.toArray(new Edge[0]);
    }

    private Map<String, Object> call(final Map<?, ?> params) {
        final String op = string(params, "op");
        final Map<String, Object> out = new LinkedHashMap<>();
        switch (op) {
            case "list":
                out.put("views", views.names());
                return out;
            case "create":
                views.create(string(params, "name"));
                break;
            case "add":
                views.add(string(params, "name"), ids(params, "ids"));
                break;
            case "remove":
                views.remove(string(params, "name"), ids(params, "ids"));
                break;
            case "addEdges":
                views.addEdges(string(params, "name"), edges(params));
                break;
            case "removeEdges":
                views.removeEdges(string(params, "name"), edges(params));
                break;
            case "edges":
                out.put("name", string(params, "name"));
                out.put("edges", views.edgeMembers(string(params, "name")).stream().map(String::valueOf).sorted().toList());
                return out;
            case "union":
                views.union(string(params, "name"), string(params, "a"), string(params, "b"));
                break;
            case "intersection":
                views.intersection(string(params, "name"), string(params, "a"), string(params, "b"));
                break;
            case "difference":
                views.difference(string(params, "name"), string(params, "a"), string(params, "b"));
                break;
            case "property":
                views.property(string(params, "name"), string(params, "key"), params.get("value"));
                out.put("properties", views.properties(string(params, "name")));
                break;
            case "properties":
                out.put("name", string(params, "name"));
                out.put("properties", views.properties(string(params, "name")));
                return out;
            case "members":
                out.put("name", string(params, "name"));
                out.put("members", Arrays.stream(views.members(string(params, "name"))).sorted().boxed().toList());
                return out;
            case "drop":
                views.drop(string(params, "name"));
                out.put("name", string(params, "name"));
                out.put("dropped", true);
                return out;
            default:
                throw new IllegalArgumentException(NAME + " has no op '" + op + "': ops are list, create, add, remove,"
                    + " addEdges, removeEdges, edges, union, intersection, difference, property, properties, members, drop");
        }
        final String name = string(params, "name");
        out.put("name", name);
        out.put("view", views.id(name));
        out.put("members", views.members(name).length);
        return out;
    }
}
