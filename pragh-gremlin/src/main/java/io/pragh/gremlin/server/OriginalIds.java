package io.pragh.gremlin.server;

import org.apache.tinkerpop.gremlin.structure.Graph;
import org.apache.tinkerpop.gremlin.structure.T;
import org.apache.tinkerpop.gremlin.structure.Vertex;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;

/**
 * A view of a graph for TinkerPop's file readers that keeps every id a file gives: an id the graph can take (an
 * integer in Pragh's range, or its decimal string) becomes the element's id as before; any other (GraphML's usual
 * {@code n0}, a GraphSON string or UUID id) is kept as the string property {@value #KEY} of the vertex or edge
 * instead of being dropped for an assigned id, so {@code g.V().has('originalId', 'n0')} finds what the file called
 * {@code n0}. The readers ask the graph whether it takes an id and, told no, silently leave it out; this view says
 * yes to every id and moves the ones the graph cannot take into the property itself.
 *
 * <p>Example: {@code GraphMLReader.build().create().readGraph(in, OriginalIds.view(graph));}
 */
final class OriginalIds {
    /** The property that holds an id the graph could not take, as a string. */
    static final String KEY = "originalId";

    private OriginalIds() {
    }

    /** {@code graph} as the readers should see it: every id taken, the foreign ones as {@value #KEY}. */
    static Graph view(final Graph graph) {
        return proxy(Graph.class, graph, (method, args) -> switch (method.getName()) {
            case "addVertex" -> vertex(graph, graph.addVertex(keep((Object[]) args[0],
                graph.features().vertex())));
            case "features" -> proxy(Graph.Features.class, graph.features(), (m, a) -> switch (m.getName()) {
                case "vertex" -> everyId(Graph.Features.VertexFeatures.class, graph.features().vertex());
                case "edge" -> everyId(Graph.Features.EdgeFeatures.class, graph.features().edge());
                default -> m.invoke(graph.features(), a);
            });
            default -> method.invoke(graph, args);
        });
    }

    /** A vertex whose new edges keep their ids the same way. */
    private static Vertex vertex(final Graph graph, final Vertex vertex) {
        return proxy(Vertex.class, vertex, (method, args) -> {
            if (method.getName().equals("addEdge") && args.length == 3) {
                final Vertex in = (Vertex) args[1];
                return vertex.addEdge((String) args[0], real(in), keep((Object[]) args[2], graph.features().edge()));
            }
            return method.invoke(vertex, args);
        });
    }

    /** The graph's own vertex behind a view's. */
    private static Vertex real(final Vertex v) {
        return Proxy.isProxyClass(v.getClass()) && Proxy.getInvocationHandler(v) instanceof Delegate d
            ? (Vertex) d.target : v;
    }

    /** Features that take every id: the view keeps each one, as the id or as {@value #KEY}. */
    private static <F extends Graph.Features.ElementFeatures> F everyId(final Class<F> type, final F features) {
        return proxy(type, features, (method, args) -> switch (method.getName()) {
            case "willAllowId", "supportsUserSuppliedIds" -> true;
            default -> method.invoke(features, args);
        });
    }

    /** The key-values with an id the graph cannot take moved to {@value #KEY}. */
    private static Object[] keep(final Object[] keyValues, final Graph.Features.ElementFeatures features) {
        final List<Object> out = new ArrayList<>(keyValues.length + 2);
        Object foreign = null;
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            if (keyValues[i] == T.id && keyValues[i + 1] != null && !features.willAllowId(keyValues[i + 1])) {
                foreign = keyValues[i + 1];
            } else {
                out.add(keyValues[i]);
                out.add(keyValues[i + 1]);
            }
        }
        if (foreign != null) {
            out.add(KEY);
            out.add(foreign.toString());
        }
        return out.toArray();
    }

    private interface Handler {
        Object invoke(Method method, Object[] args) throws Exception;
    }

    /** Calls {@code handler}, for the object methods too, and hands back what the target threw as thrown. */
    private record Delegate(Object target, Handler handler) implements java.lang.reflect.InvocationHandler {
        @Override
        public Object invoke(final Object proxy, final Method method, final Object[] args) throws Throwable {
            try {
                if (method.getName().equals("equals") && args.length == 1) {
                    return target.equals(args[0] != null && Proxy.isProxyClass(args[0].getClass())
                        && Proxy.getInvocationHandler(args[0]) instanceof Delegate d ? d.target : args[0]);
                }
                return handler.invoke(method, args == null ? new Object[0] : args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <I> I proxy(final Class<I> type, final Object target, final Handler handler) {
        return (I) Proxy.newProxyInstance(OriginalIds.class.getClassLoader(), new Class<?>[] {type},
            new Delegate(target, handler));
    }
}
