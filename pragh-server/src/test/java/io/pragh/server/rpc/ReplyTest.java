package io.pragh.server.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.pragh.LimitExceededException;
import io.pragh.PraghException;
import io.pragh.fabric.FabricException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * A failed request is answered RETRY when it may pass (a peer down, a timeout, a state recovery resolves) and ERROR
 * when it is wrong in itself, with words a client can act on, whether it failed in the protocol's own operations or
 * an extension's, and however deeply the futures wrapped it.
 */
class ReplyTest {
    private static String text(Reply r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    @Test
    void whatMayPassIsRetryAndWhatIsWrongIsError() {
        assertEquals(ClientProtocol.RETRY, Reply.failure(new FabricException("peer 2 down", true), 0, 100).status());
        assertEquals(ClientProtocol.ERROR, Reply.failure(new FabricException("bad region", false), 0, 100).status());
        assertEquals(ClientProtocol.RETRY, Reply.failure(new PraghException("stale address"), 0, 100).status());
        assertEquals(ClientProtocol.ERROR, Reply.failure(new LimitExceededException("value too large"), 0, 100)
            .status());
        Reply bad = Reply.failure(new IllegalArgumentException("FOO of 2 bytes"), 0, 100);
        assertEquals(ClientProtocol.ERROR, bad.status());
        assertEquals("FOO of 2 bytes", text(bad), "the reason as thrown");
    }

    @Test
    void aTimeoutSaysWhichMachineAndHowLongInsideAnyWrapping() {
        Reply r = Reply.failure(new CompletionException(new CompletionException(new TimeoutException())), 3, 250);
        assertEquals(ClientProtocol.RETRY, r.status());
        assertTrue(text(r).startsWith("machine 3: not completed within 250 ms"), text(r));
    }

    @Test
    void anUnforeseenFailureIsAnErrorInWordsNotAClassName() {
        Reply r = Reply.failure(new NullPointerException(), 1, 100);
        assertEquals(ClientProtocol.ERROR, r.status());
        assertEquals("machine 1 failed the request: an internal error (see its log)", text(r));
        assertFalse(text(r).contains("NullPointer"));
    }
}
