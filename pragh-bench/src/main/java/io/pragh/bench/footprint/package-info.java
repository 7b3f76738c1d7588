/**
 * Memory footprint figures computed from the regions' own geometry (bytes per key of the key region). Depends on
 * {@code io.pragh.keys} and {@code io.pragh.store}.
 */
package io.pragh.bench.footprint;
