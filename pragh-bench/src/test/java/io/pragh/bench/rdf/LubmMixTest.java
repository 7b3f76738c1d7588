package io.pragh.bench.rdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.gremlin.structure.EmbeddedGraphStore;
import io.pragh.gremlin.structure.PraghGraph;
import io.pragh.rdf.load.RdfLoad;
import io.pragh.rdf.lubm.LubmGenerator;
import io.pragh.rdf.store.RdfStore;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.configuration2.BaseConfiguration;
import org.apache.jena.riot.Lang;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LubmMixTest {
    /**
     * A class whose every start vertex answers nothing would measure lookups of empty lists, not the query; L3 is the
     * exception LUBM makes on purpose (UBA gives undergraduates no degree, so L3 is empty at any size, in Wukong's
     * runs too): its exploration still reads D's members and their types before it ends empty.
     */
    @Test
    void everyQueryClassButL3AnswersRowsFromSomeStartVertexOfItsPool(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("lubm-1.nt");
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            new LubmGenerator(1, 42).write(w);
        }
        BaseConfiguration conf = new BaseConfiguration();
        conf.setProperty(PraghGraph.MACHINES, 2);
        conf.setProperty(EmbeddedGraphStore.VALUE_BYTES, 64L << 20);
        try (EmbeddedGraphStore store = EmbeddedGraphStore.open(conf)) {
            RdfStore rdf = new RdfStore(store);
            RdfLoad.into(rdf).load(file, Lang.NTRIPLES);
            LubmMix mix = LubmMix.of(rdf, 42);
            int[] pools = mix.poolSizes();
            assertEquals(LubmMix.CLASSES.size(), pools.length);
            for (int c = 0; c < pools.length; c++) {
                if (LubmMix.CLASSES.get(c).name().equals("L3")) {
                    assertEquals(0, mix.rows(c, 0));
                    continue;
                }
                boolean answered = false;
                for (int i = 0; i < pools[c] && !answered; i++) {
                    answered = mix.rows(c, i) > 0;
                }
                assertTrue(answered, LubmMix.CLASSES.get(c).name() + " answers nothing from any of its " + pools[c]
                    + " start vertices");
            }
        }
    }
}
