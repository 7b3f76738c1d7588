/**
 * Threads of a machine's work plane: duty threads with one loop each, and worker pools with optional core pinning.
 * Depends on Agrona and OpenHFT affinity.
 */
package io.pragh.runtime;
