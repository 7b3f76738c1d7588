package io.pragh.bench.rdf;

import io.pragh.bench.traversal.ClientWorkload;
import io.pragh.bench.traversal.deploy.BenchCluster;
import io.pragh.bench.workload.ZipfianDistribution;
import io.pragh.gremlin.structure.GraphStore;
import io.pragh.rdf.lubm.LubmGenerator;
import io.pragh.rdf.sparql.SparqlEngine;
import io.pragh.rdf.store.RdfKeys;
import io.pragh.rdf.store.RdfStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.apache.jena.graph.Node;
import org.apache.jena.sparql.core.Var;

/**
 * The mixed workload of the Fig. 16 benchmark: six query classes, each a LUBM query of the set L1-L7 with its
 * constant re-bound to a start vertex drawn Zipf 0.99 over that class's pool (the instances of its start type, in
 * IRI order, index 0 the hottest), so that a query is a small exploration from one vertex, as in Wukong's mixed
 * workload. A query class is drawn uniformly; the whole query (constant look-up, exploration, result terms) runs on
 * the start vertex's home machine, the machine whose accesses that query's are, as Wukong's proxy sends a query to
 * its start vertex's server. L6 is left out: its only constant is a university, N start vertices at LUBM-N.
 *
 * <pre>{@code
 * LubmMix mix = LubmMix.of(rdf, 42);
 * try (ClientWorkload.Client c = mix.open(0, 0, cluster)) { c.next(); }
 * }</pre>
 */
final class LubmMix implements ClientWorkload {
    private static final String PREFIXES = "PREFIX rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#>\n"
        + "PREFIX ub: <" + LubmGenerator.UB + ">\n";

    /** A query class: the LUBM query it comes from, the type its start vertices have, its text with %s for one. */
    record QueryClass(String name, String startType, String template) {
    }

    /** The six classes, by the LUBM query each re-binds. */
    static final List<QueryClass> CLASSES = List.of(
        new QueryClass("L1", "Department", "SELECT ?X ?Y WHERE { ?X ub:memberOf %1$s . ?X rdf:type ub:GraduateStudent ."
            + " ?X ub:undergraduateDegreeFrom ?Y . %1$s ub:subOrganizationOf ?Y . }"),
        new QueryClass("L2", "Course", "SELECT ?Y WHERE { %1$s rdf:type ub:Course . %1$s ub:name ?Y . }"),
        new QueryClass("L3", "Department", "SELECT ?X ?Y WHERE { ?X ub:memberOf %1$s . ?X rdf:type"
            + " ub:UndergraduateStudent . ?X ub:undergraduateDegreeFrom ?Y . %1$s ub:subOrganizationOf ?Y . }"),
        new QueryClass("L4", "Department", "SELECT ?X ?Y1 ?Y2 ?Y3 WHERE { ?X ub:worksFor %1$s . ?X rdf:type"
            + " ub:FullProfessor . ?X ub:name ?Y1 . ?X ub:emailAddress ?Y2 . ?X ub:telephone ?Y3 . }"),
        new QueryClass("L5", "Department", "SELECT ?X WHERE { ?X ub:subOrganizationOf %1$s . ?X rdf:type"
            + " ub:ResearchGroup . }"),
        new QueryClass("L7", "FullProfessor", "SELECT ?X ?Z WHERE { %1$s ub:teacherOf ?Z . ?Z rdf:type ub:Course ."
            + " ?X ub:advisor %1$s . ?X ub:takesCourse ?Z . ?X rdf:type ub:UndergraduateStudent . }"));

    /** One class on the loaded store: a query text and a home key per start vertex, and the Zipf law over them. */
    private record Bound(String[] queries, long[] homeKeys, ZipfianDistribution zipf) {
    }

    /** Where a query runs: on the machine that is home to {@code homeKey}; returns its rows. */
    interface AtHome {
        int rows(long homeKey, String query);

        /** {@link #rows(long, String)} for a query of class {@code c} (the read census labels its reads by it). */
        default int rows(int c, long homeKey, String query) {
            return rows(homeKey, query);
        }
    }

    private final AtHome atHome;
    private final Bound[] classes;
    private final long seed;

    private LubmMix(final AtHome atHome, final Bound[] classes, final long seed) {
        this.atHome = atHome;
        this.classes = classes;
        this.seed = seed;
    }

    /** The mix over a loaded LUBM, each query run in this JVM on its home's workers ({@code callOnHome}). */
    static LubmMix of(final RdfStore rdf, final long seed) {
        final GraphStore store = rdf.store();
        final SparqlEngine engine = new SparqlEngine(rdf);
        return of(rdf, seed, new AtHome() {
            @Override
            public int rows(final long home, final String query) {
                return store.callOnHome(home, () -> engine.query(query).rows().size());
            }

            @Override
            public int rows(final int c, final long home, final String query) {
                return store.callOnHome(home, () -> RdfCensus.label(c, home, () -> engine.query(query).rows().size()));
            }
        });
    }

    /** The mix over a loaded LUBM: each class's pool is read from the store (its start type's instances). */
    static LubmMix of(final RdfStore rdf, final long seed, final AtHome atHome) {
        final SparqlEngine engine = new SparqlEngine(rdf);
        final Bound[] bound = new Bound[CLASSES.size()];
        for (int c = 0; c < bound.length; c++) {
            final QueryClass qc = CLASSES.get(c);
            final List<String> pool = instances(engine, qc.startType());
            if (pool.isEmpty()) {
                throw new IllegalStateException("the store holds no ub:" + qc.startType() + " to start " + qc.name()
                    + " from: is it a LUBM?");
            }
            final String[] forms = pool.toArray(String[]::new);
            final long[] ids = rdf.terms().ids(forms, forms.length);
            final String[] queries = new String[forms.length];
            final long[] homes = new long[forms.length];
            for (int i = 0; i < forms.length; i++) {
                queries[i] = PREFIXES + String.format(Locale.ROOT, qc.template(), forms[i]);
                homes[i] = RdfKeys.term(ids[i]);
            }
            bound[c] = new Bound(queries, homes, new ZipfianDistribution(forms.length, ZipfianDistribution.YCSB_THETA));
        }
        return new LubmMix(atHome, bound, seed);
    }

    /** The N-Triples forms of {@code ub:type}'s instances, sorted: the pool's order, index 0 the hottest. */
    private static List<String> instances(final SparqlEngine engine, final String type) {
        final Var x = Var.alloc("x");
        final List<String> forms = new ArrayList<>();
        engine.query(PREFIXES + "SELECT ?x WHERE { ?x rdf:type ub:" + type + " }").rows().forEach(b -> {
            final Node n = b.get(x);
            if (n != null && n.isURI()) {
                forms.add("<" + n.getURI() + ">");
            }
        });
        forms.sort(null);
        return forms;
    }

    /** Start vertices of each class, in {@link #CLASSES}' order. */
    int[] poolSizes() {
        final int[] sizes = new int[classes.length];
        for (int c = 0; c < sizes.length; c++) {
            sizes[c] = classes[c].queries().length;
        }
        return sizes;
    }

    /** Runs class {@code c}'s query from the start vertex at pool index {@code i} on its home; returns its rows. */
    int rows(final int c, final int i) {
        final Bound b = classes[c];
        return atHome.rows(c, b.homeKeys()[i], b.queries()[i]);
    }

    @Override
    public Client open(final int index, final int generation, final BenchCluster cluster) {
        final SplittableRandom rng = new SplittableRandom(seed * 1_000_003L + generation * 1_009L + index);
        return new Client() {
            @Override
            public boolean next() {
                final int c = rng.nextInt(classes.length);
                rows(c, classes[c].zipf().next(rng));
                return false;
            }

            @Override
            public void close() {
            }
        };
    }
}
