package io.pragh.rdma.jni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Stale, forged and wrongly typed handles, and buffers that are too small, raise Java exceptions naming the
 * problem; the JVM survives and nothing leaks. (Were C to dereference any of these, the test JVM would die.)
 */
class BadInputTest {
    private static final long FORGED = 0x0000_0007_0000_0003L;
    private int handlesBefore = -1;

    @BeforeEach
    void library() {
        NativeLibraryAssumptions.requireBuiltLibrary();
        handlesBefore = PraghVerbs.liveHandles();
    }

    @AfterEach
    void nothingLeaked() {
        if (handlesBefore < 0) {
            return; // skipped before the library was touched
        }
        assertEquals(handlesBefore, PraghVerbs.liveHandles(), "live native handles after the test");
    }

    private static void refused(String expectedFragment, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().contains(expectedFragment), "message '" + e.getMessage() + "' should mention '"
            + expectedFragment + "'");
    }

    @Test
    void praghEntryPointsRefuseForgedHandles() {
        refused("completion queue", () -> PraghVerbs.pollCompletions(FORGED, FORGED, 1));
        refused("protection domain", () -> PraghVerbs.registerMemory(FORGED, 4096, 4096, PraghVerbs.ACCESS_ALL));
        refused("memory region", () -> PraghVerbs.memoryKeys(FORGED));
        refused("memory region", () -> PraghVerbs.deregisterMemory(0));
        refused("native buffer", () -> PraghVerbs.postSend(FORGED, 0, 1));
        refused("native buffer", () -> PraghVerbs.postRecv(-1, 0, 1));
        refused("native buffer", () -> PraghVerbs.bufferAddress(Long.MAX_VALUE));
        refused("device context", () -> PraghVerbs.atomicCapability(FORGED));
        refused("rdma_cm id", () -> PraghVerbs.connectRequestData(FORGED));
    }

    @Test
    void aFreedBufferHandleIsStale() {
        long h = PraghVerbs.allocateBuffer(64);
        PraghVerbs.freeBuffer(h);
        refused("not a live native buffer", () -> PraghVerbs.freeBuffer(h));
        refused("not a live native buffer", () -> PraghVerbs.postSend(h, 0, 1));
    }

    @Test
    void aHandleOfAnotherTypeIsRefused() {
        try (NativeBuffer buffer = NativeBuffer.allocate(WorkRequest.SIZE * 2)) {
            refused("completion queue", () -> PraghVerbs.pollCompletions(buffer.handle(), buffer.handle(), 1));
            new WorkRequest().wrap(buffer, 0).read(buffer.handle(), 1, buffer.address(), 0, 4096, 0, 8, true);
            refused("queue pair handle " + buffer.handle(), () -> PraghVerbs.postSend(buffer.handle(), 0, 1));
        }
    }

    @Test
    void descriptorRangesOutsideTheBufferAreRefused() {
        try (NativeBuffer buffer = NativeBuffer.allocate(WorkRequest.SIZE * 4)) {
            refused("do not fit", () -> PraghVerbs.postSend(buffer.handle(), 3, 2));
            refused("do not fit", () -> PraghVerbs.postSend(buffer.handle(), -1, 1));
            refused("do not fit", () -> PraghVerbs.postRecv(buffer.handle(), 0, Integer.MAX_VALUE));
            assertEquals(0, PraghVerbs.postSend(buffer.handle(), 4, 0), "an empty range posts nothing");
        }
    }

    @Test
    void flyweightsRefuseIndexesOutsideTheirBuffer() {
        try (NativeBuffer buffer = NativeBuffer.allocate(WorkRequest.SIZE)) {
            assertThrows(IndexOutOfBoundsException.class, () -> new WorkRequest().wrap(buffer, 1));
            assertThrows(IndexOutOfBoundsException.class, () -> new Completion().wrap(buffer, 2));
        }
    }

    @Test
    void badBufferSizesAreRefused() {
        refused("positive size", () -> PraghVerbs.allocateBuffer(0));
        refused("positive size", () -> PraghVerbs.allocateBuffer(-5));
    }

    @Test
    void disniEntryPointsRefuseForgedHandles() throws Throwable {
        DisniDispatcher d = DisniDispatcher.create();
        refused("event channel", () -> d.call("_createId", FORGED, (short) 0x0106));
        refused("rdma_cm id", () -> d.call("_bindAddr", FORGED, 0L));
        refused("rdma_cm id", () -> d.call("_connect", FORGED, 7, 7, 0L, (byte) 0));
        refused("rdma_cm id", () -> d.call("_destroyCmId", FORGED));
        refused("rdma_cm id", () -> d.call("_getContext", FORGED));
        refused("rdma_cm id", () -> d.call("_createQP", FORGED, FORGED, FORGED, FORGED, 2, 16, 16, 0));
        refused("event channel", () -> d.call("_getCmEvent", FORGED, 0L, 0L, 10));
        refused("device context", () -> d.call("_allocPd", FORGED));
        refused("device context", () -> d.call("_createCQ", FORGED, 0L, 16, 0));
        refused("protection domain", () -> d.call("_regMr", FORGED, 4096L, 4096, 15, 0L, 0L, 0L));
        refused("memory region", () -> d.call("_deregMr", FORGED));
        refused("queue pair", () -> d.call("_postSend", FORGED, 4096L));
        refused("queue pair", () -> d.call("_postRecv", FORGED, 4096L));
        refused("queue pair", () -> d.call("_getQpNum", FORGED));
        refused("completion queue", () -> d.call("_pollCQ", FORGED, 1, 4096L));
        refused("completion queue", () -> d.call("_reqNotifyCQ", FORGED, 0));
        refused("completion channel", () -> d.call("_getCqEvent", FORGED, 10));
        refused("protection domain", () -> d.call("_deallocPd", FORGED));
    }

    @Test
    void aNativeBufferHandleIsNotADisniObject() throws Throwable {
        DisniDispatcher d = DisniDispatcher.create();
        try (NativeBuffer buffer = NativeBuffer.allocate(256)) {
            refused("queue pair", () -> d.call("_postSend", buffer.handle(), buffer.address()));
            refused("completion queue", () -> d.call("_pollCQ", buffer.handle(), 1, buffer.address()));
        }
    }

    /** Without an RDMA device (this host) the event channel cannot open; with one it opens and closes cleanly. */
    @Test
    void creatingAnEventChannelEitherWorksOrSaysWhy() throws Throwable {
        DisniDispatcher d = DisniDispatcher.create();
        try {
            long channel = (long) d.call("_createEventChannel");
            assertTrue(channel > 0);
            assertEquals(0, d.call("_destroyEventChannel", channel));
        } catch (IOException e) {
            assertTrue(e.getMessage().contains("rdma_create_event_channel failed") && e.getMessage().contains("errno"),
                e.getMessage());
        }
    }
}
