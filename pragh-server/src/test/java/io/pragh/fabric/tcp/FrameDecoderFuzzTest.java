package io.pragh.fabric.tcp;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of the frame decoder (Jazzer). In a plain test run Jazzer replays the seed corpus in
 * {@code FrameDecoderFuzzTestInputs/}; the module's Surefire configuration sets {@code JAZZER_FUZZ} so that
 * {@code mvn verify} also fuzzes for the bounded time below. Any exception other than a FrameException, or a frame
 * that does not re-encode to its own bytes, is a finding.
 */
class FrameDecoderFuzzTest {
    @FuzzTest(maxDuration = "10s")
    void decodesOrRejectsWithAFrameException(byte[] input) {
        FrameDecoderHarness.check(input);
    }
}
