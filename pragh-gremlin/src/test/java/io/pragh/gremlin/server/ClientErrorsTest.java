package io.pragh.gremlin.server;

import org.apache.tinkerpop.gremlin.driver.Client;
import org.apache.tinkerpop.gremlin.driver.Cluster;
import org.apache.tinkerpop.gremlin.driver.RequestOptions;
import org.apache.tinkerpop.gremlin.driver.exception.ResponseException;
import org.apache.tinkerpop.gremlin.util.message.ResponseStatusCode;
import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Error responses carry Gremlin-level messages: no Java class names, no stack traces, in the message or attributes. */
class ClientErrorsTest {
    /** A package-qualified Java name, or a stack frame. */
    private static final Pattern JAVA = Pattern.compile("\\b(?:java|javax|org|io|com|sun|jdk)\\.[a-z]+\\.|\\bat [\\w.$]+\\(");

    @Test
    void messagesAreRewrittenInGremlinTerms() {
        assertEquals("syntax error at line 1, column 5: no viable alternative at input 'g.V(.'", ClientErrors.message(
            "Failed to interpret Gremlin query: Query parsing failed at line 1, character position at 4, error message :"
                + " no viable alternative at input 'g.V(.'"));
        final StringBuilder tokens = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            tokens.append(i == 0 ? "" : ", ").append("'step").append(i).append('\'');
        }
        assertEquals("syntax error at line 2, column 1: mismatched input ')' expecting one of 40 other tokens",
            ClientErrors.message("Failed to interpret Gremlin query: Query parsing failed at line 2, character position"
                + " at 0, error message : mismatched input ')' expecting {" + tokens + "}"));
        assertEquals("Could not detect the file format", ClientErrors.message(
            "java.lang.IllegalStateException: Could not detect the file format\n\tat org.apache.tinkerpop.gremlin."
                + "process.traversal.step.sideEffect.IoStep.detect(IoStep.java:219)\n\tat java.base/java.lang.Thread.run"
                + "(Thread.java:840)\nCaused by: java.io.IOException: x\n\t... 12 more"));
        assertEquals("Error during serialization: Serializer for type GraphTraversalSource not found",
            ClientErrors.message("Error during serialization: java.io.IOException: Serializer for type"
                + " org.apache.tinkerpop.gremlin.process.traversal.dsl.graph.GraphTraversalSource not found"));
        assertEquals("a Long was given where a String is expected", ClientErrors.message("class java.lang.Long cannot"
            + " be cast to class java.lang.String (java.lang.Long and java.lang.String are in module java.base of"
            + " loader 'bootstrap')"));
        assertTrue(ClientErrors.message("java.util.NoSuchElementException").startsWith("the traversal has no result"));
        assertTrue(ClientErrors.message("io.pragh.SomethingInternalException").startsWith("the request failed"));
        // Gremlin in a message is not mistaken for a class name
        assertEquals("g.V().out() on machine 2 (10.0.0.2:8182) failed; retry", ClientErrors.message(
            "g.V().out() on machine 2 (10.0.0.2:8182) failed; retry"));
        assertTrue(ClientErrors.message("x".repeat(5_000)).length() < ClientErrors.MAX_MESSAGE + 100);
    }

    private static ResponseException failure(final Client client, final String script) {
        final ExecutionException e = assertThrows(ExecutionException.class, () -> client.submit(script,
            RequestOptions.build().language("gremlin-lang").create()).all().get(), script);
        assertTrue(e.getCause() instanceof ResponseException, script + ": " + e);
        final ResponseException r = (ResponseException) e.getCause();
        assertFalse(JAVA.matcher(r.getMessage()).find(), script + ": " + r.getMessage());
        assertTrue(r.getRemoteStackTrace().isEmpty(), script + ": a stack trace reached the client");
        assertTrue(r.getRemoteExceptionHierarchy().isEmpty() || r.getRemoteExceptionHierarchy().get().isEmpty(),
            script + ": exception classes reached the client: " + r.getRemoteExceptionHierarchy());
        return r;
    }

    @Test
    void overTheWireErrorsNameNoJavaClassesAndCarryNoStackTrace() throws Exception {
        try (ServedGraph served = new ServedGraph()) {
            final Cluster cluster = Cluster.build("127.0.0.1").port(served.port).create();
            try {
                final Client client = cluster.connect();
                final ResponseException syntax = failure(client, "g.V(.count()");
                assertEquals("syntax error at line 1, column 5: no viable alternative at input 'g.V(.'",
                    syntax.getMessage());
                assertEquals(ResponseStatusCode.SERVER_ERROR_EVALUATION, syntax.getResponseStatusCode());
                assertTrue(failure(client, "g.V(1L).next()").getMessage().startsWith("the traversal has no result"));
                failure(client, "g.inject(1).math('_ / 0')");
                failure(client, "g.withStrategies(ReadOnlyStrategy)");
                assertEquals("a String was given where a Number is expected",
                    failure(client, "g.inject('x').sum()").getMessage());
                assertTrue(failure(client, "g.io('/etc/hostname').read()").getMessage().contains("is refused"));
                // and the server still answers
                assertEquals(0L, client.submit("g.V().count()", RequestOptions.build().language("gremlin-lang")
                    .create()).one().getLong());
            } finally {
                cluster.close();
            }
        }
    }
}
