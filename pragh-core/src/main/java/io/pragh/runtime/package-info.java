/** Threads of a machine's work plane: worker pools with optional core pinning. Depends on Agrona and OpenHFT affinity. */
package io.pragh.runtime;
