/**
 * Threads of a machine's work plane: duty threads with one loop each, duty executors for tasks
 * others hand over, and worker pools with optional core pinning. Depends on Agrona and OpenHFT affinity.
 */
@MayDependOn({"net.openhft..", "org.agrona.."})
package io.pragh.runtime;

import io.pragh.MayDependOn;
