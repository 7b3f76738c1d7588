/**
 * The migration protocol: unilateral, target-only MIGRATE over one-sided operations, and the migration thread that
 * runs it. Monitoring and the coordinator's policies build on it. Depends on {@code io.pragh.store} and the layers
 * below it.
 */
package io.pragh.migration;
