package io.pragh.fabric.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.LimitExceededException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerbsConfigTest {
    private static final List<InetSocketAddress> TWO = List.of(new InetSocketAddress("127.0.0.1", 1),
        new InetSocketAddress("127.0.0.1", 2));

    @Test
    void defaultsApplyToEverythingButTheAddresses() {
        VerbsConfig c = VerbsConfig.of(TWO);
        assertEquals(2, c.machineCount());
        assertEquals(VerbsConfig.DEFAULT_SEND_QUEUE_DEPTH, c.sendQueueDepth());
        assertEquals(VerbsConfig.DEFAULT_MESSAGE_BYTES, c.messageBytes());
    }

    @Test
    void badSettingsAreRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new VerbsConfig(TWO, 2, 1 << 20, 4096, 8, 8, Duration.ofSeconds(1), Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("sendQueueDepth"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
            () -> new VerbsConfig(TWO, 16, 1 << 20, 4096, 8, 8, Duration.ZERO, Duration.ofSeconds(1)));
        assertTrue(e.getMessage().contains("timeouts"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> VerbsConfig.of(
            List.of(InetSocketAddress.createUnresolved("nowhere.invalid", 1))));
        assertTrue(e.getMessage().contains("machine 0"), e.getMessage());
    }

    @Test
    void moreMachinesThanAnAddressWordCanNameAreRefused() {
        List<InetSocketAddress> many = new ArrayList<>();
        for (int i = 0; i < 129; i++) {
            many.add(new InetSocketAddress("127.0.0.1", 1000 + i));
        }
        assertThrows(LimitExceededException.class, () -> VerbsConfig.of(many));
    }
}
