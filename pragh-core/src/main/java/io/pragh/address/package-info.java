/**
 * The 64-bit address word (paper section 4.1, with a generation tag): encoding, decoding and its limits, and the
 * cluster-wide size classes its class field names. Depends on nothing but {@code io.pragh}.
 */
@MayDependOn({"io.pragh"})
package io.pragh.address;

import io.pragh.MayDependOn;
