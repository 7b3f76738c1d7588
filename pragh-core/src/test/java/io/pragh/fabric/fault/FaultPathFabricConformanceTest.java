package io.pragh.fabric.fault;

import java.util.concurrent.TimeUnit;

/**
 * The fault fabric passes the shared Fabric contract when every one-sided operation goes through its fault path (a
 * rule that delays each by zero): single operations through the rule check, batches performed by the fault
 * fabric's own thread through the wrapped endpoint's single operations.
 */
class FaultPathFabricConformanceTest extends FaultFabricConformanceTest {
    @Override
    protected void rules(FaultFabric fabric) {
        fabric.when().oneSided().delay(0, TimeUnit.NANOSECONDS);
    }
}
