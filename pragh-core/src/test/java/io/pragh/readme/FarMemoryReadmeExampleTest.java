package io.pragh.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.analytics.GraphAnalytics;
import io.pragh.analytics.PageRank;
import io.pragh.analytics.ScanOptions;
import io.pragh.embedded.EmbeddedCluster;
import io.pragh.tier.TierBytes;
import io.pragh.tier.TieringConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.agrona.collections.Long2LongHashMap;
import org.junit.jupiter.api.Test;

/** The README's far-memory example, verbatim between the markers, so that it always compiles and runs. */
class FarMemoryReadmeExampleTest {
    @Test
    void theFarMemoryExampleRuns() throws Exception {
        // README-FARMEM-BEGIN
        EmbeddedCluster cluster = EmbeddedCluster.builder().machines(2).memoryNodes(1, 1L << 30)   // 1 memory node, 1 GiB
            .tiering(TieringConfig.defaults().withLocalBudgetBytes(64L << 20)).build();          // 64 MiB local per machine
        // README-FARMEM-PAUSE
        try (cluster) {
            cluster.graph().addEdge(1, 0, 2);
            cluster.graph().addEdge(2, 0, 3);
            // README-FARMEM-RESUME
            GraphAnalytics analytics = new GraphAnalytics(cluster, ScanOptions.defaults());         // io.pragh.analytics
            Long2LongHashMap levels = analytics.bfs(1, 0);                  // vertex -> hops, over every out-list of label 0
            PageRank.Result ranks = analytics.pageRank(0, 10, 0.85);
            TierBytes bytes = cluster.tiering().bytes();                    // local / far bytes per tier after the last round
            // README-FARMEM-END
            assertEquals(2, levels.get(3));
            assertEquals(3, ranks.vertices());
            assertTrue(ranks.rank(3) > ranks.rank(1));
            assertEquals(0, bytes.far(), "far under budget: nothing moves");
        }
    }

    @Test
    void theReadmeShowsThisExample() throws Exception {
        String test = Files.readString(Path.of("src/test/java/io/pragh/readme/FarMemoryReadmeExampleTest.java"));
        String code = ReadmeExampleTest.between(test, "// README-FARMEM-BEGIN", "// README-FARMEM-PAUSE")
            + ReadmeExampleTest.between(test, "// README-FARMEM-RESUME", "// README-FARMEM-END");
        String readme = ReadmeExampleTest.normalize(Files.readString(Path.of("../README.md")));
        assertTrue(readme.contains(ReadmeExampleTest.normalize(code)),
            "README.md must contain the example of FarMemoryReadmeExampleTest verbatim (modulo indentation)");
    }
}
