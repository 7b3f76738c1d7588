package io.pragh.gremlin.features;

import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Stage;
import io.cucumber.guice.CucumberModules;
import io.cucumber.junit.Cucumber;
import io.cucumber.junit.CucumberOptions;
import org.apache.tinkerpop.gremlin.features.AbstractGuiceFactory;
import org.apache.tinkerpop.gremlin.features.World;
import org.junit.runner.RunWith;

/**
 * TinkerPop's Gherkin feature suite (gremlin-test 3.8.1) against PraghGraph. Every excluded tag is listed with its
 * reason in pragh-gremlin/README.md.
 */
@RunWith(Cucumber.class)
@CucumberOptions(
    tags = "not @GraphComputerOnly and not @RemoteOnly and not @AllowNullPropertyValues"
        + " and not @UserSuppliedVertexPropertyIds and not @InsertionOrderingRequired",
    glue = {"org.apache.tinkerpop.gremlin.features"},
    objectFactory = PraghFeatureTest.PraghGuiceFactory.class,
    features = {"classpath:/org/apache/tinkerpop/gremlin/test/features"},
    plugin = {"summary", "junit:target/cucumber.xml"})
public class PraghFeatureTest {
    public static final class PraghGuiceFactory extends AbstractGuiceFactory {
        public PraghGuiceFactory() {
            super(Guice.createInjector(Stage.PRODUCTION, CucumberModules.createScenarioModule(), new WorldModule()));
        }
    }

    static final class WorldModule extends AbstractModule {
        @Override
        protected void configure() {
            bind(World.class).to(PraghWorld.class);
        }
    }
}
