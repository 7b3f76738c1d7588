package io.pragh.server.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.monitor.KeyRate;
import io.pragh.monitor.MonitorReport;
import java.util.List;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * The policy's messages between machines keep their wire format (machines of one cluster may run builds from either
 * side of a change of this class): decision codes 0, 1, 2, 3, a report's layout, and malformed messages refused.
 */
class PolicyMessagesTest {
    @Test
    void decisionKindsKeepTheirWireCodes() {
        assertEquals(0, DecisionKind.MIGRATE_HERE.code());
        assertEquals(1, DecisionKind.TRACK.code());
        assertEquals(2, DecisionKind.UNTRACK.code());
        assertEquals(3, DecisionKind.REPLICATE_HERE.code());
        for (DecisionKind k : DecisionKind.values()) {
            assertEquals(k, DecisionKind.of(k.code()));
        }
        assertNull(DecisionKind.of((byte) 4), "a code no kind has");
        assertNull(DecisionKind.of((byte) -1));
    }

    @Test
    void aDecisionIsTenBytesOfTypeKindAndKey() {
        UnsafeBuffer msg = PolicyMessages.decision(DecisionKind.UNTRACK, 0x0102030405060708L);
        assertEquals(10, msg.capacity());
        assertEquals(19, msg.getByte(0));
        assertEquals(2, msg.getByte(1));
        assertEquals(DecisionKind.UNTRACK, PolicyMessages.decisionKind(msg, 0, 10));
        assertEquals(0x0102030405060708L, PolicyMessages.decisionKey(msg, 0));
        assertNull(PolicyMessages.decisionKind(msg, 0, 9), "a short DECISION is malformed");
        msg.putByte(1, (byte) 7);
        assertNull(PolicyMessages.decisionKind(msg, 0, 10), "an unknown kind is malformed");
    }

    @Test
    void aReplicaOfferIsADecisionFollowedByTheReadRate() {
        UnsafeBuffer msg = PolicyMessages.replicaOffer(0x0102030405060708L, 12.5);
        assertEquals(18, msg.capacity());
        assertEquals(19, msg.getByte(0));
        assertEquals(3, msg.getByte(1));
        assertEquals(DecisionKind.REPLICATE_HERE, PolicyMessages.decisionKind(msg, 0, 18));
        assertEquals(0x0102030405060708L, PolicyMessages.decisionKey(msg, 0));
        assertEquals(12.5, PolicyMessages.offerRate(msg, 0));
        assertNull(PolicyMessages.decisionKind(msg, 0, 10), "an offer without its rate is malformed");
        UnsafeBuffer plain = PolicyMessages.decision(DecisionKind.TRACK, 1);
        plain.putByte(1, DecisionKind.REPLICATE_HERE.code());
        assertNull(PolicyMessages.decisionKind(plain, 0, 10), "a ten-byte REPLICATE_HERE is malformed");
    }

    @Test
    void aReportSurvivesItsEncodingAndKeepsItsLayout() {
        MonitorReport r = new MonitorReport(2, true, List.of(new KeyRate(11, 1, 2.5, true),
            new KeyRate(12, 0, 0.25, false), new KeyRate(13, 2, 9, false)), 12.5);
        UnsafeBuffer msg = PolicyMessages.report(r, 2);
        assertEquals(14 + 2 * 21, msg.capacity(), "header, then 21 bytes a key");
        assertEquals(18, msg.getByte(0));
        assertEquals(1, msg.getByte(1));
        assertEquals(2, msg.getInt(2));
        assertEquals(12.5, msg.getDouble(6), "the reporter's instant rate");
        assertEquals(12, msg.getLong(14 + 21));
        MonitorReport back = PolicyMessages.readReport(2, msg, 0, msg.capacity(), 3);
        assertEquals(new MonitorReport(2, true, r.keys().subList(0, 2), 12.5), back);
        MonitorReport unknown = PolicyMessages.readReport(2, PolicyMessages.report(
            new MonitorReport(2, false, List.of()), 0), 0, 14, 3);
        assertTrue(Double.isNaN(unknown.instantRate()), "an unknown instant rate stays unknown");
    }

    @Test
    void aMalformedReportIsRefusedSayingWhy() {
        UnsafeBuffer msg = PolicyMessages.report(new MonitorReport(0, false, List.of(new KeyRate(5, 1, 1, false))), 1);
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> PolicyMessages.readReport(0, msg, 0, msg.capacity() - 1, 2)).getMessage().contains("malformed"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> PolicyMessages.readReport(0, msg, 0, msg.capacity(), 1)).getMessage()
            .contains("naming machine 1"), "a host outside the cluster");
    }

    @Test
    void aReportHoldsAtLeastOneKeyWhateverTheMessageLimit() {
        assertEquals(1, PolicyMessages.maxKeysPerReport(10));
        assertEquals((4096 - 14) / 21, PolicyMessages.maxKeysPerReport(4096));
    }
}
