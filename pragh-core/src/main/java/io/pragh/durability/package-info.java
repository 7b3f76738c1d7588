/**
 * Durability of a machine's home keys: the write-ahead log of applied updates (acknowledged only once durable),
 * periodic snapshots, and recovery by replaying both per key in version order. Depends on {@code io.pragh.store},
 * {@code io.pragh.runtime} and the JDK's file channels.
 */
package io.pragh.durability;
