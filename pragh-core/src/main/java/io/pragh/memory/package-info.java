/**
 * Off-heap, chunked memory (resident only where touched) that a machine's regions are made of and that fabrics register.
 * Depends on Agrona only.
 */
package io.pragh.memory;
