package io.pragh.gremlin.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class EdgeListParserTest {
    private static EdgeBuffer parse(final String text) throws IOException {
        return EdgeListParser.parse(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), "test.txt",
            new EdgeBuffer(), bytes -> { });
    }

    private static String error(final String text) {
        return assertThrows(IOException.class, () -> parse(text)).getMessage();
    }

    @Test
    void readsIdsLabelsAndSkipsCommentsAndBlankLines() throws IOException {
        final EdgeBuffer e = parse("# comment\n% other\n1 2\n\n2\t3 knows\r\n3,1\n17592186044415 0 self");
        assertEquals(4, e.size());
        assertEquals(List.of("edge", "knows", "self"), e.labels());
        assertEquals(2, e.out(1));
        assertEquals(3, e.in(1));
        assertEquals("knows", e.labels().get(e.label(1)));
        assertEquals("edge", e.labels().get(e.label(2)), "a line without a label gets the default");
        assertEquals(17592186044415L, e.out(3));
        assertEquals(17592186044415L, e.maxVid());
    }

    @Test
    void aLabelledFirstLineDoesNotLabelLaterUnlabelledOnes() throws IOException {
        final EdgeBuffer e = parse("1 2 knows\n2 3\n");
        assertEquals("knows", e.labels().get(e.label(0)));
        assertEquals("edge", e.labels().get(e.label(1)));
    }

    @Test
    void badLinesAreNamedWithTheirText() {
        String m = error("1 2\n2 x\n");
        assertTrue(m.startsWith("test.txt line 2: ") && m.contains("'x'") && m.contains("'2 x'"), m);
        m = error("1 2\n\n1 2 3 4\n");
        assertTrue(m.contains("test.txt line 3") && m.contains("more than three fields"), m);
        m = error("1 2\n-5 2\n");
        assertTrue(m.contains("test.txt line 2") && m.contains("-5"), m);
        m = error("1\n");
        assertTrue(m.contains("test.txt line 1") && m.contains("1 field"), m);
        m = error("1 2\n99999999999999 1\n");
        assertTrue(m.contains("test.txt line 2") && m.contains("outside"), m);
    }
}
