package io.pragh.gremlin.view;

import io.pragh.durability.SyncPolicy;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.gremlin.structure.TestGraphs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DurableViewsTest {
    private static PraghGraph open(final Path dir) {
        return PraghGraph.open(TestGraphs.configuration(), EmbeddedGraphStore.build(EmbeddedCluster.builder()
            .machines(2).workersPerMachine(1).pinThreads(false).keysPerMachine(16_384).valueBytesPerMachine(4L << 20)
            .durability(dir, SyncPolicy.NONE, 60_000)));
    }

    @Test
    void aViewItsMembersAndPropertiesSurviveARestart(@TempDir final Path dir) {
        final long a;
        final long b;
        try (PraghGraph graph = open(dir)) {
            a = PraghGraph.toVid(graph.addVertex().id());
            b = PraghGraph.toVid(graph.addVertex().id());
            final PraghViews views = PraghViews.of(graph);
            views.create("kept");
            views.add("kept", a, b);
            views.remove("kept", b);
            views.property("kept", "city", "Palo Alto");
            views.memberProperty("kept", a, "speed", 42);
        }
        try (PraghGraph graph = open(dir)) {
            final PraghViews views = PraghViews.of(graph);
            assertEquals(Set.of("kept"), views.names().keySet());
            assertEquals(1, views.members("kept").length);
            assertEquals(a, views.members("kept")[0]);
            assertEquals(Map.of("city", "Palo Alto"), views.properties("kept"));
            assertEquals(Map.of("speed", 42), views.memberProperties("kept", a));
        }
    }
}
