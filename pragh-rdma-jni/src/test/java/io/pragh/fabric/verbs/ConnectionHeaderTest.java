package io.pragh.fabric.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConnectionHeaderTest {
    @Test
    void aHeaderSurvivesTheWire() {
        ConnectionHeader h = new ConnectionHeader(ConnectionHeader.Kind.LANE, 127, 70_000);
        assertEquals(h, ConnectionHeader.decode(h.encode()));
        assertEquals(8, h.encode().length, "fits the smallest rdma_cm private data");
    }

    @Test
    void foreignPrivateDataIsRefusedWithTheReason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ConnectionHeader.decode(null)).getMessage()
            .contains("no private data"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ConnectionHeader.decode(new byte[3]))
            .getMessage().contains("3 bytes"));
        byte[] wrongMagic = new ConnectionHeader(ConnectionHeader.Kind.MESSAGES, 1, 0).encode();
        wrongMagic[0] = 7;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ConnectionHeader.decode(wrongMagic))
            .getMessage().contains("not come from a Pragh"));
        byte[] unknownKind = new ConnectionHeader(ConnectionHeader.Kind.MESSAGES, 1, 0).encode();
        unknownKind[1] = 9;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ConnectionHeader.decode(unknownKind))
            .getMessage().contains("unknown kind 9"));
    }

    @Test
    void machineIdsBeyondTheHeaderAreRefused() {
        assertThrows(IllegalArgumentException.class,
            () -> new ConnectionHeader(ConnectionHeader.Kind.LANE, 1 << 16, 0));
    }
}
