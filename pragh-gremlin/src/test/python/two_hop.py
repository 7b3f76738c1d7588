"""gremlinpython end-to-end check against ./pragh serve: build a seeded random graph through the driver, then compare
g.V(v).out().out().count() with the walks counted here. Exits 0 and prints 'ok' on agreement, 1 on the first
difference. Usage: python two_hop.py PORT [SEED]"""
import random
import sys

from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.graph_traversal import __
from gremlin_python.process.traversal import T


def main():
    port = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 7)
    vertices, edge_count = 30, 120
    edges = [(rng.randrange(vertices), rng.randrange(vertices), rng.choice(["knows", "likes"])) for _ in range(edge_count)]
    conn = DriverRemoteConnection("ws://127.0.0.1:%d/gremlin" % port, "g")
    try:
        g = traversal().with_remote(conn)
        for v in range(vertices):
            g.add_v("node").property(T.id, v).iterate()  # small ints travel as 32-bit: the server stores longs
        for a, b, label in edges:
            g.V(a).add_e(label).to(__.V(b)).iterate()
        assert g.E().count().next() == edge_count, "edge count"
        for v in range(vertices):
            expected = sum(1 for (a, m, _) in edges if a == v for (c, _, _) in edges if c == m)
            actual = g.V(v).out().out().count().next()
            if actual != expected:
                print("two-hop walks from %d: server %d, client %d" % (v, actual, expected))
                return 1
        print("ok %d vertices, %d edges" % (vertices, edge_count))
        return 0
    finally:
        conn.close()


if __name__ == "__main__":
    sys.exit(main())
