"""gremlinpython check of the Gremlin port's frame limit: a request over it gets an error naming the limit (not a
lost connection), a response batch over it gets one too, and the same single connection serves on after each.
Exits 0 and prints 'ok' when all hold, 1 otherwise. Usage: python frame_limit.py GREMLIN_PORT LIMIT_BYTES"""
import sys

from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.driver.protocol import GremlinServerError
from gremlin_python.process.anonymous_traversal import traversal


def refused(run, code, words):
    try:
        run()
    except GremlinServerError as e:
        text = str(e)
        assert text.startswith(str(code) + ":") and all(w in text for w in words), text
        return text
    raise AssertionError("expected a %d error naming %s" % (code, words))


def main():
    port, limit = int(sys.argv[1]), int(sys.argv[2])
    # One connection: what follows a refusal runs on the connection that was refused.
    conn = DriverRemoteConnection("ws://127.0.0.1:%d/gremlin" % port, "g", pool_size=1)
    try:
        g = traversal().with_remote(conn)
        before = g.V().count().next()
        print(refused(lambda: g.add_v("big").property("p", "x" * (limit + 1000)).iterate(), 499,
                      ["request of", "frame limit of %d bytes" % limit, "--max-frame-bytes"]))
        assert g.V().count().next() == before, "the refused request added nothing"
        v = g.add_v("wide").id_().next()
        half = limit // 2
        g.V(v).property("p0", "y" * half).iterate()
        g.V(v).property("p1", "z" * half).iterate()
        print(refused(lambda: g.V(v).value_map().next(), 500,
                      ["response batch of", "frame limit of %d bytes" % limit]))
        assert len(g.V(v).values("p0").next()) == half, "one value at a time fits"
        assert g.V().count().next() == before + 1
        print("ok frame limit %d" % limit)
    finally:
        conn.close()


if __name__ == "__main__":
    try:
        main()
    except AssertionError as e:
        print("FAILED: %s" % e)
        sys.exit(1)
