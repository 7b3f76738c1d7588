package io.pragh.rdf.lubm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Random;

/**
 * LUBM (Guo, Pan and Heflin, "LUBM: A benchmark for OWL knowledge base systems", 2005) data as N-Triples, following
 * its Univ-Bench generator (UBA 1.7): per university 15-25 departments; per department 7-10 full, 10-14 associate and
 * 8-11 assistant professors and 5-7 lecturers, 8-14 undergraduate and 3-4 graduate students per faculty member, 10-20
 * research groups; each faculty member teaches 1-2 courses and 1-2 graduate courses and writes publications (full
 * 15-20, associate 10-18, assistant 5-10, lecturer 0-5); an undergraduate takes 2-4 courses and one in five has a
 * professor as advisor; a graduate student takes 1-3 graduate courses, has a professor as advisor, co-authors 0-5 of
 * the advisor's publications, one in four assists teaching a course and one in three is a research assistant. Degrees
 * come from any of 1000 universities, as in UBA. IRIs are UBA's: {@code http://www.University0.edu},
 * {@code http://www.Department0.University0.edu/FullProfessor0}, {@code .../FullProfessor0/Publication0}. One full
 * professor heads each department.
 *
 * <p>Each university draws from its own {@code Random(seed, university)}, so a university's triples do not depend on
 * how many are generated, and the same seed gives the same file.
 *
 * <p>Example: {@code new LubmGenerator(1, 0).write(writer);  // LUBM-1, about 100,000 triples}
 */
public final class LubmGenerator {
    public static final String UB = "http://swat.cse.lehigh.edu/onto/univ-bench.owl#";
    private static final String TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>";
    /** Universities degrees are drawn from, as UBA's UNIV_NUM. */
    private static final int DEGREE_UNIVERSITIES = 1000;
    private static final String[] FACULTY = {"FullProfessor", "AssociateProfessor", "AssistantProfessor", "Lecturer"};
    private static final int[][] FACULTY_COUNT = {{7, 10}, {10, 14}, {8, 11}, {5, 7}};
    private static final int[][] PUBLICATIONS = {{15, 20}, {10, 18}, {5, 10}, {0, 5}};

    private final int universities;
    private final long seed;
    private Writer out;
    private long triples;

    public LubmGenerator(final int universities, final long seed) {
        if (universities < 1) {
            throw new IllegalArgumentException("--universities must be at least 1, got " + universities);
        }
        this.universities = universities;
        this.seed = seed;
    }

    /** Writes every university's triples; returns how many. */
    public long write(final Writer writer) {
        this.out = writer;
        this.triples = 0;
        for (int u = 0; u < universities; u++) {
            university(u, new Random(seed * 0x9E3779B97F4A7C15L + u));
        }
        try {
            writer.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return triples;
    }

    private void university(final int u, final Random random) {
        final String univ = university(u);
        type(univ, "University");
        literal(univ, "name", "University" + u);
        final int departments = between(random, 15, 25);
        for (int d = 0; d < departments; d++) {
            department(u, d, random);
        }
    }

    private void department(final int u, final int d, final Random random) {
        final String dept = "http://www.Department" + d + ".University" + u + ".edu";
        type(dept, "Department");
        literal(dept, "name", "Department" + d);
        iri(dept, "subOrganizationOf", university(u));
        final int[] counts = new int[FACULTY.length];
        int faculty = 0;
        for (int k = 0; k < FACULTY.length; k++) {
            counts[k] = between(random, FACULTY_COUNT[k][0], FACULTY_COUNT[k][1]);
            faculty += counts[k];
        }
        int courses = 0;
        int graduateCourses = 0;
        final int chair = random.nextInt(counts[0]);
        final int professors = counts[0] + counts[1] + counts[2];
        final int[] publicationsOf = new int[professors];
        for (int k = 0, p = 0; k < FACULTY.length; k++) {
            for (int i = 0; i < counts[k]; i++) {
                final String f = dept + "/" + FACULTY[k] + i;
                type(f, FACULTY[k]);
                person(f, FACULTY[k] + i, dept);
                iri(f, "worksFor", dept);
                for (final String degree : new String[] {"undergraduateDegreeFrom", "mastersDegreeFrom",
                    "doctoralDegreeFrom"}) {
                    iri(f, degree, university(random.nextInt(DEGREE_UNIVERSITIES)));
                }
                if (k < 3) {
                    literal(f, "researchInterest", "Research" + random.nextInt(30));
                }
                if (k == 0 && i == chair) {
                    iri(f, "headOf", dept);
                }
                for (int c = between(random, 1, 2); c > 0; c--) {
                    course(dept, "Course", courses++, f);
                }
                for (int c = between(random, 1, 2); c > 0; c--) {
                    course(dept, "GraduateCourse", graduateCourses++, f);
                }
                final int pubs = between(random, PUBLICATIONS[k][0], PUBLICATIONS[k][1]);
                for (int n = 0; n < pubs; n++) {
                    final String pub = f + "/Publication" + n;
                    type(pub, "Publication");
                    literal(pub, "name", "Publication" + n);
                    iri(pub, "publicationAuthor", f);
                }
                if (k < 3) {
                    publicationsOf[p++] = pubs;
                }
            }
        }
        students(dept, random, faculty, counts, courses, graduateCourses, publicationsOf);
        for (int g = between(random, 10, 20) - 1; g >= 0; g--) {
            final String group = dept + "/ResearchGroup" + g;
            type(group, "ResearchGroup");
            iri(group, "subOrganizationOf", dept);
        }
    }

    private void students(final String dept, final Random random, final int faculty, final int[] counts,
                          final int courses, final int graduateCourses, final int[] publicationsOf) {
        final int undergraduates = between(random, 8 * faculty, 14 * faculty);
        for (int i = 0; i < undergraduates; i++) {
            final String s = student(dept, "UndergraduateStudent", i);
            takes(s, dept, "Course", courses, between(random, 2, 4), random);
            if (random.nextInt(5) == 0) {
                iri(s, "advisor", professor(dept, counts, random.nextInt(publicationsOf.length)));
            }
        }
        final int graduates = between(random, 3 * faculty, 4 * faculty);
        for (int i = 0; i < graduates; i++) {
            final String s = student(dept, "GraduateStudent", i);
            iri(s, "undergraduateDegreeFrom", university(random.nextInt(DEGREE_UNIVERSITIES)));
            takes(s, dept, "GraduateCourse", graduateCourses, between(random, 1, 3), random);
            final int advisor = random.nextInt(publicationsOf.length);
            final String professor = professor(dept, counts, advisor);
            iri(s, "advisor", professor);
            for (final int n : distinct(random, publicationsOf[advisor], between(random, 0, 5))) {
                iri(professor + "/Publication" + n, "publicationAuthor", s);
            }
            if (random.nextInt(4) == 0) {
                iri(s, "teachingAssistantOf", dept + "/Course" + random.nextInt(courses));
            }
            if (random.nextInt(3) == 0) {
                type(s, "ResearchAssistant");
            }
        }
    }

    /** A student's type, name, e-mail, telephone and department; returns the student's IRI. */
    private String student(final String dept, final String kind, final int i) {
        final String s = dept + "/" + kind + i;
        type(s, kind);
        person(s, kind + i, dept);
        iri(s, "memberOf", dept);
        return s;
    }

    /** Professor {@code index} of a department counted across full, associate and assistant professors. */
    private static String professor(final String dept, final int[] counts, final int index) {
        int i = index;
        for (int k = 0; k < 3; k++) {
            if (i < counts[k]) {
                return dept + "/" + FACULTY[k] + i;
            }
            i -= counts[k];
        }
        throw new IllegalArgumentException("no professor " + index);
    }

    /** Distinct courses of a kind for one student. */
    private void takes(final String student, final String dept, final String kind, final int of, final int count,
                       final Random random) {
        for (final int c : distinct(random, of, count)) {
            iri(student, "takesCourse", dept + "/" + kind + c);
        }
    }

    /** {@code count} distinct numbers below {@code of} (all of them when fewer): a few picks among many, so retries are rare. */
    private static int[] distinct(final Random random, final int of, final int count) {
        final int[] picked = new int[Math.min(count, of)];
        for (int t = 0; t < picked.length; t++) {
            int c;
            boolean again;
            do {
                c = random.nextInt(of);
                again = false;
                for (int j = 0; j < t; j++) {
                    again |= picked[j] == c;
                }
            } while (again);
            picked[t] = c;
        }
        return picked;
    }

    private void course(final String dept, final String kind, final int n, final String teacher) {
        final String c = dept + "/" + kind + n;
        type(c, kind);
        literal(c, "name", kind + n);
        iri(teacher, "teacherOf", c);
    }

    private void person(final String iri, final String name, final String dept) {
        literal(iri, "name", name);
        literal(iri, "emailAddress", name + "@" + dept.substring("http://www.".length()));
        literal(iri, "telephone", "xxx-xxx-xxxx");
    }

    private static String university(final int u) {
        return "http://www.University" + u + ".edu";
    }

    private static int between(final Random random, final int min, final int max) {
        return min + random.nextInt(max - min + 1);
    }

    private void type(final String subject, final String cls) {
        line("<" + subject + "> " + TYPE + " <" + UB + cls + "> .\n");
    }

    private void iri(final String subject, final String property, final String object) {
        line("<" + subject + "> <" + UB + property + "> <" + object + "> .\n");
    }

    private void literal(final String subject, final String property, final String value) {
        line("<" + subject + "> <" + UB + property + "> \"" + value + "\" .\n");
    }

    private void line(final String triple) {
        try {
            out.write(triple);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        triples++;
    }
}
