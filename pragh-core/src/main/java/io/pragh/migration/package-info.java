/**
 * The migration protocol: unilateral, target-only MIGRATE over one-sided operations, and the migration thread that
 * runs it, with the finishing of rounds left half done and the invalidation of a source that grew in place after it
 * was copied. Monitoring and the coordinator's policies build on it. Depends on {@code io.pragh.store} and the layers
 * below it.
 */
package io.pragh.migration;
