package io.pragh.gremlin.features;

import com.google.inject.Guice;
import com.google.inject.Stage;
import io.cucumber.guice.CucumberModules;
import org.apache.tinkerpop.gremlin.features.AbstractGuiceFactory;

/** Cucumber's object factory for the feature suites over TCP: their world is {@link PraghTcpWorld}. */
public final class PraghTcpGuiceFactory extends AbstractGuiceFactory {
    public PraghTcpGuiceFactory() {
        super(Guice.createInjector(Stage.PRODUCTION, CucumberModules.createScenarioModule(),
            new PraghFeatureTest.WorldModule(PraghTcpWorld.class)));
    }
}
