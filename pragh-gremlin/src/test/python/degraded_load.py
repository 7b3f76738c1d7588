"""gremlinpython load on a cluster's Gremlin ports while one machine is killed and brought back (DegradedClusterTest).

Writers add vertices with unique ids, readers read acknowledged ones back by V(id) (forwarded to the home machine)
and a scanner counts g.V(); every request's latency is measured here, around the driver call. The test drives the
phases over stdin/stdout: this script prints 'warm' once writes flow, the test kills a machine and writes 'down',
then 'back' once the machine serves again (writes acknowledged in between are counted); the load goes on for two seconds more, then every acknowledged write is read back (retrying
failures the server marks retryable) and one line 'result {json}' reports what happened.

Usage: python degraded_load.py PORT [PORT ...]
"""
import itertools
import json
import logging
import random
import re
import sys
import threading
import time

from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.driver.protocol import GremlinServerError
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.traversal import T

RETRYABLE = 596  # SERVER_ERROR_TEMPORARY
# A qualified Java class name (io.pragh.X, java.util.concurrent.X) or a stack frame.
JAVA = re.compile(r"\b(?:java|javax|org|io|com)\.[a-z0-9_]+\.[A-Za-z0-9_.$]*[A-Z]\w*|\n\s*at |Exception\b")


class Load:
    def __init__(self, ports):
        self.ports = ports
        self.ids = itertools.count(1)
        self.lock = threading.Lock()
        self.acked = []
        self.requests = 0
        self.latencies = []  # (seconds, what, outcome)
        self.failures = []  # (what, code, message)
        self.wrong = []
        self.stop = threading.Event()

    def timed(self, what, call):
        """Runs one request; returns (ok, value). Failures are recorded with their status code and message."""
        t0 = time.monotonic()
        try:
            value = call()
            outcome, ok = "ok", True
        except GremlinServerError as e:
            value, ok = None, False
            outcome = "status %s" % e.status_code
            with self.lock:
                self.failures.append((what, e.status_code, str(e.status_message)))
        except Exception as e:  # the driver's own failures (a broken connection) are failures too, never skipped
            value, ok = None, False
            outcome = "driver %s" % type(e).__name__
            with self.lock:
                self.failures.append((what, None, "%s: %s" % (type(e).__name__, e)))
        elapsed = time.monotonic() - t0
        with self.lock:
            self.requests += 1
            self.latencies.append((elapsed, what, outcome))
        return ok, value

    def writer(self, port):
        conn = DriverRemoteConnection("ws://127.0.0.1:%d/gremlin" % port, "g")
        g = traversal().with_remote(conn)
        try:
            while not self.stop.is_set():
                k = next(self.ids)
                ok, _ = self.timed("write %d" % k, lambda: g.add_v("item").property(T.id, k).property("n", k).iterate())
                if ok:
                    with self.lock:
                        self.acked.append(k)
        finally:
            conn.close()

    def reader(self, port, seed):
        rng = random.Random(seed)
        conn = DriverRemoteConnection("ws://127.0.0.1:%d/gremlin" % port, "g")
        g = traversal().with_remote(conn)
        last_scan = 0.0
        try:
            while not self.stop.is_set():
                with self.lock:
                    k = rng.choice(self.acked) if self.acked else None
                if k is None:
                    time.sleep(0.01)
                    continue
                ok, value = self.timed("read %d" % k, lambda: g.V(k).values("n").to_list())
                if ok and value != [k]:
                    with self.lock:
                        self.wrong.append((k, value))
                if time.monotonic() - last_scan > 0.5:
                    last_scan = time.monotonic()
                    self.timed("count", lambda: g.V().count().next())
        finally:
            conn.close()

    def read_back(self, port, deadline_seconds):
        """Every acknowledged write, read through one port; retryable failures are retried until the deadline."""
        conn = DriverRemoteConnection("ws://127.0.0.1:%d/gremlin" % port, "g")
        g = traversal().with_remote(conn)
        lost = []
        deadline = time.monotonic() + deadline_seconds
        try:
            for k in self.acked:
                while True:
                    ok, value = self.timed("read back %d" % k, lambda: g.V(k).values("n").to_list())
                    if ok:
                        if value != [k]:
                            lost.append((k, value))
                        break
                    if self.failures[-1][1] != RETRYABLE or time.monotonic() > deadline:
                        lost.append((k, "failed: " + self.failures[-1][2]))
                        break
                    time.sleep(0.1)
        finally:
            conn.close()
        return lost


def expect(word):
    line = sys.stdin.readline().strip()
    if line != word:
        raise SystemExit("expected %r on stdin, got %r" % (word, line))


def main():
    # The driver logs every error answer; they are counted and reported here instead.
    logging.getLogger("gremlinpython").setLevel(logging.CRITICAL)
    ports = [int(p) for p in sys.argv[1:]]
    load = Load(ports)
    threads = [threading.Thread(target=load.writer, args=(p,)) for p in ports]
    threads += [threading.Thread(target=load.reader, args=(p, i)) for i, p in enumerate(ports)]
    for t in threads:
        t.start()
    try:
        while True:
            with load.lock:
                if len(load.acked) >= 60:
                    break
            time.sleep(0.05)
        print("warm", flush=True)
        expect("down")
        with load.lock:
            acked_at_down = len(load.acked)
        expect("back")
        with load.lock:
            acked_while_down = len(load.acked) - acked_at_down
        time.sleep(2.0)
    finally:
        load.stop.set()
        for t in threads:
            t.join()
    lost = load.read_back(ports[0], 20.0)
    failures = load.failures
    retryable = [f for f in failures if f[1] == RETRYABLE]
    not_retryable = [f for f in failures if f[1] != RETRYABLE]
    java_names = [f for f in failures if JAVA.search(f[2])]
    slowest = sorted(load.latencies, reverse=True)[:5]
    result = {
        "requests": load.requests,
        "acknowledgedWrites": len(load.acked),
        "acknowledgedWhileDown": acked_while_down,
        "failed": len(failures),
        "retryable": len(retryable),
        "notRetryable": not_retryable[:5],
        "notRetryableCount": len(not_retryable),
        "javaNamesInMessages": java_names[:5],
        "retryableMessages": sorted({f[2] for f in retryable})[:8],
        "maxLatencySeconds": slowest[0][0] if slowest else 0.0,
        "slowest": slowest,
        "lost": lost[:10],
        "lostCount": len(lost),
        "wrongReads": load.wrong[:10],
    }
    print("result " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
