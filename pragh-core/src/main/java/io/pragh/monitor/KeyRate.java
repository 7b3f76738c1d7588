package io.pragh.monitor;

/**
 * One key in a monitor report: how often the reporting machine accessed it, and where its value lived then.
 *
 * <pre>{@code
 * KeyRate r = new KeyRate(key, 3, 450.0, false);   // 450 accesses/s; value on machine 3
 * }</pre>
 *
 * @param key     the key
 * @param host    machine that held the key's value when last seen by the reporter
 * @param rate    accesses per second over the interval (decayed counts, see {@link Monitor})
 * @param tracked whether the reporter counted this key on the coordinator's request (then a rate of 0 is a
 *                measurement, not an absence)
 */
public record KeyRate(long key, int host, double rate, boolean tracked) {
}
