package io.pragh.gremlin.features;

import io.cucumber.junit.Cucumber;
import io.cucumber.junit.CucumberOptions;
import org.junit.runner.RunWith;

/**
 * TinkerPop's whole Gherkin feature suite over 3 server machines in this JVM on the TCP fabric ({@link
 * PraghTcpWorld}), the same scenarios as {@link PraghFeatureTest}. Too long for {@code ./pragh test} (its name is no
 * surefire default, so that skips it): run with {@code ./pragh test-tcp-suites}. {@link PraghStoreFeaturesOverTcpSuite}
 * is its store-facing part, quicker to run alone.
 */
@RunWith(Cucumber.class)
@CucumberOptions(
    tags = PraghFeatureTest.TAGS,
    glue = {"org.apache.tinkerpop.gremlin.features"},
    objectFactory = PraghTcpGuiceFactory.class,
    features = {PraghFeatureTest.FEATURES},
    plugin = {"summary", "junit:target/cucumber-over-tcp.xml"})
public class PraghFeaturesOverTcpSuite {
}
