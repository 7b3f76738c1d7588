package io.pragh.gremlin.features;

import io.cucumber.junit.Cucumber;
import io.cucumber.junit.CucumberOptions;
import org.junit.runner.RunWith;

/**
 * The feature files of TinkerPop's Gherkin suite that read and drop the store's records most directly, over 3 server
 * machines in this JVM on the TCP fabric ({@link PraghTcpWorld}): hops and edges by direction, label and id (fused
 * and TinkerPop's plan), {@code hasId} and {@code drop}. Chosen to fit the test run's time budget: the whole suite
 * over TCP ({@link PraghFeaturesOverTcpSuite}, {@code ./pragh test-tcp-suites}) takes far too long for every run;
 * writes and properties are pinned over TCP by {@link io.pragh.gremlin.distributed.PraghStructureCoreOverTcpTest} and
 * the store contract test, and every step runs embedded in {@link PraghFeatureTest}.
 */
@RunWith(Cucumber.class)
@CucumberOptions(
    tags = PraghFeatureTest.TAGS,
    glue = {"org.apache.tinkerpop.gremlin.features"},
    objectFactory = PraghTcpGuiceFactory.class,
    features = {
        PraghFeatureTest.FEATURES + "/map/Vertex.feature",
        PraghFeatureTest.FEATURES + "/map/Edge.feature",
        PraghFeatureTest.FEATURES + "/filter/HasId.feature",
        PraghFeatureTest.FEATURES + "/filter/Drop.feature"},
    plugin = {"summary", "junit:target/cucumber-store-over-tcp.xml"})
public class PraghStoreFeaturesOverTcpSuite {
}
