/**
 * Keys and where they live: the key layout (vid | label | kind), placement (home machine by vid hash) and the key
 * region, the bucketed hash table of (key, address word) slots. Depends on {@code io.pragh.address} and
 * {@code io.pragh.memory}.
 */
@MayDependOn({"io.pragh", "io.pragh.address", "io.pragh.memory", "org.agrona.."})
package io.pragh.keys;

import io.pragh.MayDependOn;
