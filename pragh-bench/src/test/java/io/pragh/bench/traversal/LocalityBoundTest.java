package io.pragh.bench.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.pragh.bench.workload.AdjacencyGraph;
import io.pragh.bench.workload.UniformDistribution;
import io.pragh.keys.KeyLayout;
import io.pragh.keys.Placement;
import org.junit.jupiter.api.Test;

class LocalityBoundTest {
    @Test
    void oneMachineHasNothingRemote() {
        AdjacencyGraph g = AdjacencyGraph.fromEdges(3, new int[] {0, 1}, new int[] {2, 2});
        assertEquals(0, LocalityBound.remoteRateFloor(g, new int[] {0, 1}, new UniformDistribution(2), 10, 1));
    }

    @Test
    void aNeighbourSharedByStartsOnTwoMachinesLeavesOneSideRemote() {
        Placement p = Placement.hashed(2);
        int a = 0;
        int b = 1;
        while (p.home(KeyLayout.key(b, 0, KeyLayout.OUT)) == p.home(KeyLayout.key(a, 0, KeyLayout.OUT))) {
            b++;
        }
        int shared = b + 1;
        AdjacencyGraph g = AdjacencyGraph.fromEdges(shared + 1, new int[] {a, b}, new int[] {shared, shared});
        // GETs per query: the start (local) and the shared neighbour; one of the two starts' neighbour reads is
        // remote wherever the value sits: 1 remote value read of 4 GETs = 8 accesses, weighted 1/2 each.
        double floor = LocalityBound.remoteRateFloor(g, new int[] {a, b}, new UniformDistribution(2), 10, 2);
        assertEquals(0.5 / (2 * 2), floor, 1e-12);
    }
}
