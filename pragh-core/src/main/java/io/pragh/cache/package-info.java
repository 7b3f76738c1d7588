/**
 * The location cache: remote keys' address words with leases and access counters, the structure that makes reads
 * of migrated values fully local and that the monitor reads remote access counts from. Depends on
 * {@code io.pragh.keys} (hashing) and {@code io.pragh.memory}.
 */
@MayDependOn({"io.pragh.keys", "io.pragh.memory", "org.agrona.."})
package io.pragh.cache;

import io.pragh.MayDependOn;
