package io.pragh.fabric;

import org.agrona.DirectBuffer;

/**
 * Receives two-sided messages for one machine. Called on the fabric's delivery thread for that machine, one message
 * at a time and in order per sender; it must not block (hand long work to a worker), and the buffer is valid only
 * during the call.
 */
@FunctionalInterface
public interface MessageHandler {
    void onMessage(int from, DirectBuffer message, int offset, int length);
}
