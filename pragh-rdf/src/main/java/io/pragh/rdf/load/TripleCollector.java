package io.pragh.rdf.load;

import org.agrona.collections.LongHashSet;
import org.apache.jena.graph.Node;
import org.apache.jena.graph.Triple;
import org.apache.jena.riot.out.NodeFmtLib;
import org.apache.jena.riot.system.StreamRDFBase;
import org.apache.jena.sparql.core.Quad;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What RIOT parses, kept compact: each distinct term once (its N-Triples form) with a local number, each distinct
 * predicate once, and the triples as three int arrays of local numbers. Ids in the store come later, for all the
 * file's terms at once (one batch of dictionary lookups, one claim on the id counter). Quads' graph names are
 * refused: the store holds one default graph.
 *
 * <p>Example: {@code RDFParser.source(path).parse(collector); int n = collector.size();}
 */
public final class TripleCollector extends StreamRDFBase {
    private final Map<String, Integer> termNumbers = new HashMap<>();
    final List<String> terms = new ArrayList<>();
    private final Map<String, Integer> predicateNumbers = new HashMap<>();
    final List<String> predicates = new ArrayList<>();
    int[] subjects = new int[1024];
    int[] predicateOf = new int[1024];
    int[] objects = new int[1024];
    private int size;
    private boolean finished;

    @Override
    public void triple(final Triple triple) {
        add(triple.getSubject(), triple.getPredicate(), triple.getObject());
    }

    @Override
    public void quad(final Quad quad) {
        if (!quad.isDefaultGraph()) {
            throw new IllegalArgumentException("named graph " + NodeFmtLib.strNT(quad.getGraph())
                + ": the RDF store holds the default graph only");
        }
        add(quad.getSubject(), quad.getPredicate(), quad.getObject());
    }

    private void add(final Node s, final Node p, final Node o) {
        if (finished) {
            throw new IllegalStateException("a triple after the end of the parse: a collector holds one parse");
        }
        if (size == subjects.length) {
            subjects = Arrays.copyOf(subjects, size * 2);
            predicateOf = Arrays.copyOf(predicateOf, size * 2);
            objects = Arrays.copyOf(objects, size * 2);
        }
        subjects[size] = number(termNumbers, terms, NodeFmtLib.strNT(s));
        predicateOf[size] = number(predicateNumbers, predicates, NodeFmtLib.strNT(p));
        objects[size] = number(termNumbers, terms, NodeFmtLib.strNT(o));
        size++;
    }

    private static int number(final Map<String, Integer> numbers, final List<String> list, final String form) {
        final Integer known = numbers.putIfAbsent(form, list.size());
        if (known != null) {
            return known;
        }
        list.add(form);
        return list.size() - 1;
    }

    /**
     * The parse ended: drops the term and predicate lookup maps and trims the arrays to the triples, so a collector
     * kept for more than one write (the RDF benchmark writes one parse into each mode's cluster) holds only what a
     * write reads. Later triples are refused.
     */
    @Override
    public void finish() {
        termNumbers.clear();
        predicateNumbers.clear();
        subjects = Arrays.copyOf(subjects, size);
        predicateOf = Arrays.copyOf(predicateOf, size);
        objects = Arrays.copyOf(objects, size);
        finished = true;
    }

    /** Triples collected (duplicates included; the load drops them). */
    public int size() {
        return size;
    }

    /**
     * The store keys a load of this parse into an empty store makes: one list a distinct subject and predicate, one
     * a distinct object and predicate, two a term (its TERM value and, at the most, a hash bucket), and the index
     * vertex's two lists a predicate; a long list's segments and slot record come on top (149 more keys of 12.4M at
     * LUBM-64). A caller sizing key regions for what they will really hold needs
     * this rather than the bound from the counts alone ({@code 2 * size() + 2 * termCount()}), which is about twice
     * it on LUBM, where most triples share a subject and predicate with others (a type, a course list).
     */
    public long storeKeys() {
        final LongHashSet lists = new LongHashSet(Math.max(16, size));
        for (int i = 0; i < size; i++) {
            // A term number fits 31 bits and a predicate number 31: one long per (term, predicate, direction).
            lists.add(((long) subjects[i] << 32) | ((long) predicateOf[i] << 1));
            lists.add(((long) objects[i] << 32) | ((long) predicateOf[i] << 1) | 1);
        }
        return lists.size() + 2L * terms.size() + 2L * predicates.size();
    }

    /** Distinct terms (IRIs, literals, blank nodes) of what was parsed. */
    public int termCount() {
        return terms.size();
    }
}
