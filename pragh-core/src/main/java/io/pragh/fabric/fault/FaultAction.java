package io.pragh.fabric.fault;

/** What a rule does to an operation it selects. */
enum FaultAction {
    /** Performed after a pause; a delayed message is delivered later, and others may overtake it. */
    DELAY,
    /** Performed once the rule is released; the issuing thread (or a batch's completion) waits meanwhile. */
    HOLD,
    /**
     * Performed at once, but its reply is held until the rule is released: the issuer stays frozen just after an
     * operation that took effect (after a won CAS, before its next step). A message is sent, then its sender waits.
     */
    HOLD_REPLY,
    /**
     * Never reaches its target. A one-sided operation fails with a retryable {@link io.pragh.fabric.FabricException}
     * (a batched CAS then witnessed nothing); a message is lost silently, as on a connection that broke after send.
     */
    DROP,
    /** Not performed, and refused at once with a retryable error, message sends included: a partition. */
    REFUSE,
    /** Performed at its target, but the issuer sees a retryable failure: a reply lost on the way back. */
    APPLY_THEN_FAIL,
    /**
     * Fails at once at its issuer, retryably, as an operation that got no answer in time does, and takes effect at
     * its target later: after the rule's pause, or (a {@link HoldRule}) when the rule is released. What a TCP frame
     * the host decodes only after its issuer gave up does, or a verbs operation still in the NIC's retries. A late
     * CAS or WRITE lands with the operands it was issued with (its result goes nowhere); a late message is delivered;
     * a READ just fails, since nothing of it lands at its target.
     */
    APPLY_LATE,
    /**
     * Batched operations are performed in a shuffled order (each target's own order kept, as a queue pair keeps it);
     * a single operation or a message is delayed by a random time up to {@link FaultSelector#REORDER_MAX_NANOS}, so
     * later ones overtake it.
     */
    REORDER
}
