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
    tags = PraghFeatureTest.TAGS,
    glue = {"org.apache.tinkerpop.gremlin.features"},
    objectFactory = PraghFeatureTest.PraghGuiceFactory.class,
    features = {PraghFeatureTest.FEATURES},
    plugin = {"summary", "junit:target/cucumber.xml"})
public class PraghFeatureTest {
    /** The scenarios PraghGraph runs: every excluded tag's reason is in pragh-gremlin/README.md. */
    static final String TAGS = "not @GraphComputerOnly and not @RemoteOnly and not @AllowNullPropertyValues"
        + " and not @UserSuppliedVertexPropertyIds and not @InsertionOrderingRequired";
    static final String FEATURES = "classpath:/org/apache/tinkerpop/gremlin/test/features";

    public static final class PraghGuiceFactory extends AbstractGuiceFactory {
        public PraghGuiceFactory() {
            super(Guice.createInjector(Stage.PRODUCTION, CucumberModules.createScenarioModule(), new WorldModule()));
        }
    }

    static final class WorldModule extends AbstractModule {
        private final Class<? extends PraghWorld> world;

        WorldModule() {
            this(PraghWorld.class);
        }

        WorldModule(final Class<? extends PraghWorld> world) {
            this.world = world;
        }

        @Override
        protected void configure() {
            bind(World.class).to(world);
        }
    }
}
