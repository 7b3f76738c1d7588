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
import org.apache.jena.graph.NodeFactory;
import org.apache.jena.sparql.core.Var;

/**
 * The mixed workload of the Fig. 16 benchmark: six query classes, each a LUBM query of the set L1-L7 with its
 * constant re-bound to a start vertex drawn Zipf 0.99 over that class's pool (the instances of its start type, in
 * IRI order, index 0 the hottest), so that a query is a small exploration from one vertex, as in Wukong's mixed
 * workload. A query class is drawn uniformly; the whole query (constant look-up, exploration, result terms) runs on
 * the start vertex's home machine, the machine whose accesses that query's are, as Wukong's proxy sends a query to
 * its start vertex's server. L6 is left out: its only constant is a university, N start vertices at LUBM-N.
 *
 * <p>In this JVM each class is parsed once, as Wukong's emulator parses a query template once and instantiates it
 * per start vertex ({@link SparqlEngine#prepare}): parsing the text with ARQ took a third of a query's CPU
 * (profiled at LUBM-16, every mode alike), a cost of the client's text rather than of the store. Over the TCP fabric
 * ({@link SparqlAtHome}) each query still goes as text, which the serving machine parses.
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

    /** The variable a class's template names its start vertex by, bound per query. */
    static final String START = "start";

    /**
     * One class on the loaded store: its template (the start vertex as {@code ?start}); per start vertex its
     * N-Triples form, its node and its home key; and the Zipf law over them.
     */
    private record Bound(String template, String[] forms, Node[] starts, long[] homeKeys, ZipfianDistribution zipf) {
        /** The query's text from start vertex {@code i}: the template with the vertex in place of {@code ?start}. */
        String text(final int i) {
            return template.replace("?" + START, forms[i]);
        }
    }

    /** Where a query runs: on the machine that is home to {@code homeKey}; returns its rows. */
    interface AtHome {
        /**
         * Runs class {@code c}'s template (text {@code template}, {@code ?start} its start vertex) from start vertex
         * {@code start} (N-Triples form {@code form}) on the home of {@code homeKey}; returns the rows.
         */
        int rows(int c, long homeKey, String template, String form, Node start);
    }

    private final AtHome atHome;
    private final Bound[] classes;
    private final long seed;

    private LubmMix(final AtHome atHome, final Bound[] classes, final long seed) {
        this.atHome = atHome;
        this.classes = classes;
        this.seed = seed;
    }

    /**
     * The mix over a loaded LUBM, each query run in this JVM on its home's workers ({@code callOnHome}), each class's
     * template parsed once here ({@link SparqlEngine#prepare}).
     */
    static LubmMix of(final RdfStore rdf, final long seed) {
        final GraphStore store = rdf.store();
        final SparqlEngine engine = new SparqlEngine(rdf);
        final SparqlEngine.Prepared[] prepared = new SparqlEngine.Prepared[CLASSES.size()];
        for (int c = 0; c < prepared.length; c++) {
            prepared[c] = engine.prepare(template(CLASSES.get(c)), START);
        }
        if (PARSE_EACH.equals(System.getProperty(PARSE))) {
            // The comparison: every query's text parsed again, as before templates were prepared.
            return of(rdf, seed, (c, home, template, form, start) -> store.callOnHome(home, () -> RdfCensus.label(c,
                home, () -> engine.query(template.replace("?" + START, form)).rows().size())));
        }
        return of(rdf, seed, (c, home, template, form, start) -> store.callOnHome(home,
            () -> RdfCensus.label(c, home, () -> prepared[c].query(start).rows().size())));
    }

    /**
     * The system property that, set to {@value #PARSE_EACH}, has the embedded mix parse every query's text again (the
     * benchmark before templates were prepared), for a side-by-side comparison: {@code -Dpragh.bench.rdf.parse=each}.
     */
    static final String PARSE = "pragh.bench.rdf.parse";
    static final String PARSE_EACH = "each";

    /** Class {@code qc}'s query text with {@code ?start} for its start vertex. */
    static String template(final QueryClass qc) {
        return PREFIXES + String.format(Locale.ROOT, qc.template(), "?" + START);
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
            final Node[] starts = new Node[forms.length];
            final long[] homes = new long[forms.length];
            for (int i = 0; i < forms.length; i++) {
                starts[i] = NodeFactory.createURI(forms[i].substring(1, forms[i].length() - 1));
                homes[i] = RdfKeys.term(ids[i]);
            }
            bound[c] = new Bound(template(qc), forms, starts, homes,
                new ZipfianDistribution(forms.length, ZipfianDistribution.YCSB_THETA));
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
            sizes[c] = classes[c].forms().length;
        }
        return sizes;
    }

    /** Runs class {@code c}'s query from the start vertex at pool index {@code i} on its home; returns its rows. */
    int rows(final int c, final int i) {
        final Bound b = classes[c];
        return atHome.rows(c, b.homeKeys()[i], b.template(), b.forms()[i], b.starts()[i]);
    }

    /** Class {@code c}'s query text from the start vertex at pool index {@code i}, as a client would send it. */
    String text(final int c, final int i) {
        return classes[c].text(i);
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
