/**
 * Off-heap, chunked, pre-touched memory that a machine's regions are made of and that fabrics register.
 * Depends on Agrona only.
 */
package io.pragh.memory;
