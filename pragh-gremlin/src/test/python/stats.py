"""gremlinpython check of what ./pragh serve shows of itself: after a few writes and two-hop reads through the driver,
g.call('pragh.stats') answers one map per machine, and GET /metrics counts the requests. Exits 0 and prints 'ok' when
both hold, 1 otherwise. Usage: python stats.py GREMLIN_PORT METRICS_PORT MACHINES"""
import sys
import urllib.request

from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.graph_traversal import __
from gremlin_python.process.traversal import T


def requests_counted(metrics_port):
    text = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % metrics_port, timeout=10).read().decode()
    return sum(float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
               if line.startswith("pragh_gremlin_requests_seconds_count{") and 'outcome="success"' in line)


def main():
    port, metrics_port, machines = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    conn = DriverRemoteConnection("ws://127.0.0.1:%d/gremlin" % port, "g")
    try:
        g = traversal().with_remote(conn)
        for v in range(10):
            g.add_v("node").property(T.id, v).iterate()
        for v in range(10):
            g.V(v).add_e("next").to(__.V((v + 1) % 10)).iterate()
        for v in range(10):
            assert g.V(v).out().out().count().next() == 1, "two-hop from %d" % v
        stats = g.call("pragh.stats").to_list()
        if sorted(s["machine"] for s in stats) != list(range(machines)):
            print("pragh.stats answered %r" % stats)
            return 1
        if sum(s["keysHomed"] for s in stats) < 10:
            print("pragh.stats counts too few keys: %r" % stats)
            return 1
        counted = requests_counted(metrics_port)
        if counted < 30:
            print("GET /metrics counted %s successful requests, expected at least 30" % counted)
            return 1
        print("ok %d machines, %d requests counted" % (len(stats), counted))
        return 0
    finally:
        conn.close()


if __name__ == "__main__":
    sys.exit(main())
