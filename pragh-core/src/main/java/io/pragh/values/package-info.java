/**
 * The value region: variable-sized, 8-byte aligned value records with a header that exposes stale addresses, and
 * their size-class allocator, with a walk over every record it hosts. Depends on {@code io.pragh.address} and
 * {@code io.pragh.memory}.
 */
package io.pragh.values;
