/**
 * The 64-bit address word (paper section 4.1): encoding, decoding and its limits.
 * Depends on nothing but {@code io.pragh}.
 */
package io.pragh.address;
