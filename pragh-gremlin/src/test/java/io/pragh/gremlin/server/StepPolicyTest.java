package io.pragh.gremlin.server;

import org.apache.commons.configuration2.MapConfiguration;
import org.apache.tinkerpop.gremlin.process.computer.traversal.strategy.decoration.VertexProgramStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.Bytecode;
import org.apache.tinkerpop.gremlin.process.traversal.IO;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource;
import org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.__;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.TraversalStrategyProxy;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.decoration.HaltedTraverserStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.decoration.SubgraphStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.strategy.verification.ReadOnlyStrategy;
import org.apache.tinkerpop.gremlin.process.traversal.Traversal;
import org.apache.tinkerpop.gremlin.server.authz.AuthorizationException;
import org.apache.tinkerpop.gremlin.structure.util.empty.EmptyGraph;
import org.apache.tinkerpop.gremlin.util.function.Lambda;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.apache.tinkerpop.gremlin.process.traversal.AnonymousTraversalSource.traversal;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The step policy as both request forms meet it: gremlin-lang scripts and bytecode, refused and admitted. */
class StepPolicyTest {
    private static final StepPolicy DEFAULT = new StepPolicy(null, false);
    private final GraphTraversalSource g = traversal().with(EmptyGraph.instance());

    @TempDir
    Path dir;
    @TempDir
    Path outside;

    private static String refusedScript(final String script, final StepPolicy policy) {
        return assertThrows(AuthorizationException.class, () -> ScriptSteps.check(script, policy), script).getMessage();
    }

    private static String refusedBytecode(final Traversal<?, ?> t, final StepPolicy policy) {
        return assertThrows(AuthorizationException.class,
            () -> BytecodeSteps.check(t.asAdmin().getBytecode(), policy), t.toString()).getMessage();
    }

    @Test
    void ioIsRefusedByDefaultInEitherFormAndTheMessageSaysHowToAllowIt() {
        for (final String script : new String[] {
            "g.io('/etc/hostname').read()",
            "g.io('/any/path').with(IO.writer, IO.graphson).write()",
            "g.io(\"/any/path\").write().iterate()",
            // a terminated traversal in an argument would run while the script is built
            "g.inject(g.io('/etc/hostname').read().toList())",
            // any query of a multi-query script
            "g.V().count(); g.io('/tmp/x.json').write()"}) {
            final String message = refusedScript(script, DEFAULT);
            assertTrue(message.contains("io(") && message.contains("--allow-io DIR")
                && message.contains("gremlin.allowIo"), message);
        }
        final String message = refusedBytecode(g.io("/etc/hostname").read(), DEFAULT);
        assertTrue(message.startsWith("io('/etc/hostname') is refused") && message.contains("--allow-io DIR"), message);
        refusedBytecode(g.io("/any/path").with(IO.writer, IO.graphson).write(), DEFAULT);
    }

    @Test
    void onlyPraghsReadOnlyServicesAreCalled() {
        for (final String script : new String[] {"g.call('tinker.search')", "g.V().call('tinker.degree')",
            "g.call('x', [a: 1])", "g.V().where(__.call('x'))"}) {
            final String message = refusedScript(script, DEFAULT);
            assertTrue(message.contains("is refused") && message.contains("pragh.stats"), message);
        }
        refusedBytecode(g.call("tinker.search"), DEFAULT);
        refusedBytecode(g.V().map(__.call("x")), DEFAULT);
        for (final String script : new String[] {"g.call()", "g.call('pragh.stats')", "g.call('pragh.routing')",
            "g.call('pragh.bfs', [source: 1])", "g.call('pragh.pagerank')", "g.call('pragh.hotspot', [op: 'round'])",
            "g.call('--list')"}) {
            assertDoesNotThrow(() -> ScriptSteps.check(script, DEFAULT), script);
        }
        assertDoesNotThrow(() -> BytecodeSteps.check(g.call(StatsService.NAME).asAdmin().getBytecode(), DEFAULT));
        assertDoesNotThrow(() -> BytecodeSteps.check(g.call().asAdmin().getBytecode(), DEFAULT));
    }

    @Test
    void strategiesThatLoadClassesByNameAreRefused() {
        for (final String script : new String[] {"g.withStrategies(VertexProgramStrategy).V()",
            "g.withStrategies(HaltedTraverserStrategy(haltedTraverserFactory: 'java.lang.Runtime')).V()",
            "g.withStrategies(new MatchAlgorithmStrategy(matchAlgorithm: 'x')).V()",
            "g.withStrategies(NoSuchStrategy).V()"}) {
            final String message = refusedScript(script, DEFAULT);
            assertTrue(message.startsWith("withStrategies(") && message.contains(" is refused"), message);
        }
        // bytecode carries strategies as proxies of a class and a configuration, as the server reads them
        refusedBytecode(g.withStrategies(new TraversalStrategyProxy<>(HaltedTraverserStrategy.class,
            new MapConfiguration(Map.of("haltedTraverserFactory", "java.lang.Runtime")))).V(), DEFAULT);
        refusedBytecode(g.withStrategies(new TraversalStrategyProxy<>(VertexProgramStrategy.class,
            new MapConfiguration(Map.of()))).V(), DEFAULT);
        assertDoesNotThrow(() -> ScriptSteps.check(
            "g.withStrategies(ReadOnlyStrategy, SubgraphStrategy(vertices: __.has('name', 'x'))).V()", DEFAULT));
        assertDoesNotThrow(() -> BytecodeSteps.check(g.withStrategies(ReadOnlyStrategy.instance(),
            SubgraphStrategy.build().vertices(__.has("name", "x")).create()).V().asAdmin().getBytecode(), DEFAULT));
        // a strategy's own traversals are walked too
        refusedBytecode(g.withStrategies(SubgraphStrategy.build()
            .vertices(__.filter(Lambda.predicate("true"))).create()).V(), DEFAULT);
    }

    @Test
    void graphComputerProgramsAndLambdasAreRefused() {
        final String computer = refusedBytecode(g.withComputer().V(), DEFAULT);
        assertTrue(computer.contains("withComputer() sends, is refused") && computer.contains("no graph computer"),
            computer);
        final Bytecode program = new Bytecode();
        program.addStep("V");
        program.addStep("program", "a vertex program");
        assertTrue(assertThrows(AuthorizationException.class, () -> BytecodeSteps.check(program, DEFAULT))
            .getMessage().startsWith("program() is refused"));
        final String lambda = refusedBytecode(g.V().map(Lambda.function("it.get()")), DEFAULT);
        assertTrue(lambda.contains("lambdas are refused") && lambda.contains("--allow-groovy"), lambda);
        refusedBytecode(g.V().has("x", 1).where(__.map(Lambda.function("it.get()"))), DEFAULT);
        assertDoesNotThrow(() -> BytecodeSteps.check(g.V().map(Lambda.function("it.get()")).asAdmin().getBytecode(),
            new StepPolicy(null, true)));
    }

    @Test
    void everydayTraversalsAreAdmitted() {
        for (final String script : new String[] {"g.V().out().out().count()",
            "g.addV('person').property('name', 'marko').as('a').addE('knows').to('a')",
            "g.with('evaluationTimeout', 100).V().valueMap().with(WithOptions.tokens)",
            "g.V().has('age', gt(30)).order().by('age', desc).limit(2).values('name')",
            "g.mergeV([(T.id): 1]).option(Merge.onCreate, [name: 'x'])", "g.V(.count()"}) {
            assertDoesNotThrow(() -> ScriptSteps.check(script, DEFAULT), script);
        }
        assertDoesNotThrow(() -> BytecodeSteps.check(g.V().out().has("age", 3).path().by("name")
            .asAdmin().getBytecode(), DEFAULT));
    }

    @Test
    void allowIoAdmitsPathsInsideItsDirectoryOnly() throws Exception {
        final StepPolicy policy = new StepPolicy(IoDirectory.of(dir), false);
        Files.createDirectories(dir.resolve("exports"));
        final Path real = dir.toRealPath();
        assertEquals(real.resolve("graph.json"), policy.io("graph.json"));
        assertEquals(real.resolve("exports/graph.json"), policy.io(real.resolve("exports/graph.json").toString()));
        assertEquals(real.resolve("graph.json"), policy.io("exports/../graph.json"));
        // the path io() runs with is the one admitted: relative to the directory, in both request forms
        final String quoted = real.resolve("it's \"quoted\".xml").toString().replace("\"", "\\\"");
        assertEquals("g.io(\"" + real.resolve("graph.json") + "\").with(IO.writer, IO.graphson).write(); "
                + "g.io(\"" + quoted + "\").read()",
            ScriptSteps.check("g.io('graph.json').with(IO.writer, IO.graphson).write(); "
                + "g.io(\"it's \\\"quoted\\\".xml\").read()", policy));
        final Bytecode read = g.io("graph.xml").read().asAdmin().getBytecode();
        BytecodeSteps.check(read, policy);
        assertEquals(real.resolve("graph.xml").toString(), read.getStepInstructions().get(0).getArguments()[0]);

        final Path secret = Files.writeString(outside.resolve("secret.txt"), "top secret");
        Files.createSymbolicLink(dir.resolve("out"), outside);
        Files.createSymbolicLink(dir.resolve("secret.json"), secret);
        Files.createSymbolicLink(dir.resolve("dangling.json"), outside.resolve("nothing-yet.json"));
        for (final String path : new String[] {"/etc/hostname", "../secret.txt", "exports/../../secret.txt",
            secret.toString(), "out/secret.txt", "out/new.json", "secret.json", "dangling.json", "", ".",
            "exports/.."}) {
            final String message = assertThrows(AuthorizationException.class, () -> policy.io(path), path).getMessage();
            assertTrue(message.startsWith("io('" + path + "') is refused"), message);
            assertTrue(!message.contains(real.toString()) && !message.contains("top secret"), message);
        }
        // the refusal of a path outside reads the same whether or not the file exists
        assertEquals(assertThrows(AuthorizationException.class, () -> policy.io(secret.toString())).getMessage()
                .replace(secret.toString(), "P"),
            assertThrows(AuthorizationException.class, () -> policy.io(outside.resolve("none.txt").toString()))
                .getMessage().replace(outside.resolve("none.txt").toString(), "P"));
        refusedScript("g.io('../x.json').read()", policy);
        refusedBytecode(g.io("out/x.json").write(), policy);
    }

    @Test
    void allowIoAdmitsOnlyTheStandardFormats() throws Exception {
        final StepPolicy policy = new StepPolicy(IoDirectory.of(dir), false);
        for (final String script : new String[] {"g.io('g.xml').with(IO.reader, 'com.example.EvilReader').read()",
            "g.io('g.xml').with('~tinkerpop.io.registry', 'com.example.Registry').read()",
            "g.io('g.xml').with(IO.writer).write()"}) {
            final String message = refusedScript(script, policy);
            assertTrue(message.contains("is refused") && message.contains("graphml"), message);
        }
        refusedBytecode(g.io("g.xml").with(IO.registry, "com.example.Registry").read(), policy);
        refusedBytecode(g.io("g.xml").with(IO.writer, "com.example.EvilWriter").write(), policy);
        for (final String script : new String[] {"g.io('g.kryo').with(IO.reader, IO.gryo).read()",
            "g.io('g.xml').with(IO.reader, 'graphml').read()"}) {
            assertDoesNotThrow(() -> ScriptSteps.check(script, policy), script);
        }
    }

    @Test
    void theIoDirectoryMustExist() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> IoDirectory.of(dir.resolve("missing")));
        assertTrue(e.getMessage().contains("does not exist"), e.getMessage());
        final String missing = dir.resolve("missing").toString();
        assertEquals("--allow-io " + missing + ": not a directory", assertThrows(IllegalArgumentException.class,
            () -> ServeOptions.parse("--allow-io", missing)).getMessage());
        assertEquals(dir.toFile(), ServeOptions.parse("--allow-io", dir.toString()).allowIo);
    }
}
