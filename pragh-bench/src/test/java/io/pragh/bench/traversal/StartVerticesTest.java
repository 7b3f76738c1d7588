package io.pragh.bench.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StartVerticesTest {
    @Test
    void aNewScopeReplacesTheOldOneOnlyAtTheSameSize() {
        int[] first = {5, 6, 7};
        StartVertices sv = new StartVertices(first);
        first[0] = 99;
        assertEquals(5, sv.at(0), "the scope is a copy of the caller's array");
        sv.replace(new int[] {8, 9, 10});
        assertEquals(10, sv.at(2));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sv.replace(new int[] {1}));
        assertEquals("a new scope must keep 3 vertices, got 1", e.getMessage());
        assertEquals(8, sv.at(0), "a refused scope changes nothing");
    }
}
