package io.pragh.rdf.lubm;

import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** LUBM data is the same for the same seed, spelled as UBA spells it, with the specification's cardinalities. */
class LubmGeneratorTest {
    private static String generate(final int universities, final long seed) {
        final StringWriter w = new StringWriter();
        new LubmGenerator(universities, seed).write(w);
        return w.toString();
    }

    @Test
    void theSameSeedGivesTheSameTriples() {
        assertEquals(generate(1, 3), generate(1, 3));
        assertNotEquals(generate(1, 3), generate(1, 4));
        assertTrue(generate(2, 3).startsWith(generate(1, 3)), "a university does not depend on how many follow");
    }

    @Test
    void irisAndCardinalitiesFollowTheSpecification() {
        final String data = generate(1, 0);
        assertTrue(data.contains("<http://www.Department0.University0.edu/FullProfessor0> "
            + "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <" + LubmGenerator.UB + "FullProfessor> .\n"));
        assertTrue(data.contains("<http://www.Department0.University0.edu> <" + LubmGenerator.UB
            + "subOrganizationOf> <http://www.University0.edu> .\n"));
        assertTrue(data.contains("\"FullProfessor0@Department0.University0.edu\""));
        final long departments = count(data, "<" + LubmGenerator.UB + "Department> \\.");
        assertTrue(departments >= 15 && departments <= 25, departments + " departments");
        final long faculty = count(data, "<" + LubmGenerator.UB + "worksFor>");
        assertTrue(faculty >= departments * 30 && faculty <= departments * 42, faculty + " faculty");
        final long undergraduates = count(data, "<" + LubmGenerator.UB + "UndergraduateStudent> \\.");
        assertTrue(undergraduates >= 8 * faculty && undergraduates <= 14 * faculty, undergraduates + " undergraduates");
        final long graduates = count(data, "<" + LubmGenerator.UB + "GraduateStudent> \\.");
        assertTrue(graduates >= 3 * faculty && graduates <= 4 * faculty, graduates + " graduates");
        assertEquals(departments, count(data, "<" + LubmGenerator.UB + "headOf>"), "one head per department");
        assertEquals(data.lines().count(), data.lines().distinct().count(), "no triple twice");
    }

    private static long count(final String data, final String regex) {
        final Matcher m = Pattern.compile(regex).matcher(data);
        long n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }
}
