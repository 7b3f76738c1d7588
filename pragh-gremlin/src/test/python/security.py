"""gremlinpython probes of what ./pragh serve refuses and admits. Each mode prints one line per failed check and exits 1,
or prints 'ok N checks' and exits 0.

  python security.py refused PORT SECRET_FILE TARGET_FILE   a default server: every form of io(), lambdas, Groovy,
                                                            foreign services, class-loading strategies and graph
                                                            computer programs are refused; nothing is read or written
  python security.py allowed PORT IO_DIR OUTSIDE_DIR        a server with --allow-io IO_DIR: io() writes and reads
                                                            inside it, and nowhere else
  python security.py login PORT USER PASSWORD               a server with --credentials: the right password answers,
                                                            a wrong one or none is refused (401)
"""
import asyncio
import os
import re
import sys
import uuid

import aiohttp
from gremlin_python.driver import request
from gremlin_python.driver.client import Client
from gremlin_python.driver.driver_remote_connection import DriverRemoteConnection
from gremlin_python.driver.protocol import ConfigurationError, GremlinServerError
from gremlin_python.driver.serializer import GraphSONSerializersV3d0
from gremlin_python.process.anonymous_traversal import traversal
from gremlin_python.process.strategies import HaltedTraverserStrategy, VertexProgramStrategy
from gremlin_python.process.traversal import IO

GREMLIN_LANG = {"language": "gremlin-lang"}
# A package-qualified Java name or a stack frame: what a client must never be shown.
JAVA = re.compile(r"\b(?:java|javax|org|io|com|sun|jdk)\.[a-z]+\.|\bat [\w.$]+\(")


class Checks:
    def __init__(self):
        self.failures = []
        self.count = 0

    def check(self, ok, what):
        self.count += 1
        if not ok:
            self.failures.append(what)
            print("FAIL " + what)

    def refused(self, what, action, code=401, says=None, never=None):
        """Runs action; checks that the server refused it with code, a clean message saying `says`, never `never`."""
        try:
            action()
        except GremlinServerError as e:
            message = e.status_message or ""
            self.check(e.status_code == code, "%s: status %s, expected %s (%s)" % (what, e.status_code, code, message))
            self.check(not JAVA.search(message), "%s: Java internals in the message: %s" % (what, message))
            attributes = e.status_attributes or {}
            self.check("stackTrace" not in attributes and "exceptions" not in attributes,
                       "%s: exception attributes reached the client: %s" % (what, sorted(attributes)))
            if says is not None:
                self.check(says in message, "%s: the message does not say %r: %s" % (what, says, message))
            if never is not None:
                self.check(never not in message, "%s: the message leaks %r: %s" % (what, never, message))
            return message
        self.check(False, "%s was not refused" % what)
        return None

    def done(self):
        if self.failures:
            return 1
        print("ok %d checks" % self.count)
        return 0


def script(client, text):
    return client.submit(text, request_options=GREMLIN_LANG).all().result()


def refused_mode(port, secret_file, target_file):
    checks = Checks()
    secret = open(secret_file).read().strip()
    url = "ws://127.0.0.1:%d/gremlin" % port
    conn = DriverRemoteConnection(url, "g")
    client = Client(url, "g")
    try:
        g = traversal().with_remote(conn)
        g.add_v("person").property("name", "marko").iterate()
        # The probes, as bytecode and as gremlin-lang scripts.
        checks.refused("bytecode io().write()",
                       lambda: g.io(target_file).with_(IO.writer, IO.graphson).write().iterate(),
                       says="io('%s') is refused" % target_file)
        checks.refused("bytecode io().read()", lambda: g.io(secret_file).read().iterate(), never=secret)
        checks.refused("script io().write()", lambda: script(
            client, "g.io('%s').with(IO.writer, IO.graphson).write()" % target_file), says="--allow-io")
        checks.refused("script io().read()", lambda: script(client, "g.io('%s').read()" % secret_file), never=secret)
        checks.refused("script io() escaping by '..'", lambda: script(
            client, "g.io('%s/../%s').read()" % (os.path.dirname(secret_file), os.path.basename(secret_file))),
            never=secret)
        checks.refused("io() inside a terminated argument", lambda: script(
            client, "g.inject(g.io('%s').read().toList())" % secret_file), never=secret)
        checks.refused("io() in the second query of a script", lambda: script(
            client, "g.V().count(); g.io('%s').write()" % target_file))
        checks.refused("bytecode lambda", lambda: g.V().map(lambda: "it.get()").to_list(), says="lambdas are refused")
        checks.refused("a Groovy script", lambda: client.submit("g.V().count()").all().result(),
                       says="--allow-groovy")
        checks.refused("a foreign service", lambda: g.call("tinker.search").to_list(), says="pragh.stats")
        checks.refused("a foreign service in a script", lambda: script(client, "g.V().call('tinker.degree')"))
        checks.refused("withComputer()", lambda: g.with_computer().V().count().next(), says="no graph computer")
        checks.refused("VertexProgramStrategy", lambda: g.with_strategies(VertexProgramStrategy()).V().to_list())
        checks.refused("a strategy that loads a class by name", lambda: g.with_strategies(
            HaltedTraverserStrategy(halted_traverser_factory="java.lang.Runtime")).V().to_list())
        checks.refused("a script strategy that loads a class by name", lambda: script(
            client, "g.withStrategies(HaltedTraverserStrategy(haltedTraverserFactory: 'java.lang.Runtime')).V()"))
        syntax = checks.refused("a syntax error", lambda: script(client, "g.V(.count()"), code=597)
        checks.check(syntax == "syntax error at line 1, column 5: no viable alternative at input 'g.V(.'",
                     "the syntax error reads %r" % syntax)
        checks.check(not os.path.exists(target_file), "io() wrote %s" % target_file)
        # Pragh's own read-only services and plain traversals still work.
        checks.check(g.V().count().next() == 1, "the graph answers after the refusals")
        checks.check(len(g.call("pragh.stats").to_list()) >= 1, "g.call('pragh.stats') answers")
        checks.check(script(client, "g.V().values('name')") == ["marko"], "a gremlin-lang script answers")
    finally:
        conn.close()
        client.close()
    return checks.done()


def allowed_mode(port, io_dir, outside_dir):
    checks = Checks()
    url = "ws://127.0.0.1:%d/gremlin" % port
    conn = DriverRemoteConnection(url, "g")
    client = Client(url, "g")
    try:
        g = traversal().with_remote(conn)
        g.add_v("person").property("name", "marko").as_("m").add_v("person").property("name", "josh") \
            .add_e("knows").from_("m").iterate()
        script(client, "g.io('graph.json').with(IO.writer, IO.graphson).write()")
        g.io(os.path.join(io_dir, "graph.xml")).with_(IO.writer, IO.graphml).write().iterate()
        checks.check("josh" in open(os.path.join(io_dir, "graph.json")).read(), "io() wrote graph.json in IO_DIR")
        checks.check("graphml" in open(os.path.join(io_dir, "graph.xml")).read(), "io() wrote graph.xml in IO_DIR")
        g.V().drop().iterate()
        g.io("graph.xml").read().iterate()
        checks.check(g.V().count().next() == 2 and g.E().count().next() == 1, "io() read graph.xml back")
        for path in ["../escaped.json", os.path.join(outside_dir, "escaped.json"), "out/escaped.json",
                     os.path.join(io_dir, "out", "escaped.json")]:
            checks.refused("io('%s').write()" % path, lambda: script(
                client, "g.io('%s').with(IO.writer, IO.graphson).write()" % path),
                says="inside the --allow-io directory",
                never=None if os.path.isabs(path) else os.path.realpath(io_dir))  # the server's place stays unsaid
            checks.refused("bytecode io('%s').write()" % path,
                           lambda: g.io(path).with_(IO.writer, IO.graphson).write().iterate())
        checks.refused("a reader named by class", lambda: script(
            client, "g.io('graph.xml').with(IO.reader, 'com.example.EvilReader').read()"), says="graphml")
        checks.check(os.listdir(outside_dir) == ["secret.txt"], "io() wrote outside IO_DIR: %s" % os.listdir(outside_dir))
    finally:
        conn.close()
        client.close()
    return checks.done()


async def unauthenticated(port):
    """The raw protocol: a request without a login is challenged (407), a login without a password refused (401)."""
    serializer = GraphSONSerializersV3d0()
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect("ws://127.0.0.1:%d/gremlin" % port) as ws:
            request_id = str(uuid.uuid4())
            await ws.send_bytes(serializer.serialize_message(request_id, request.RequestMessage(
                "", "eval", {"gremlin": "g.inject(1)", "language": "gremlin-lang", "aliases": {"g": "g"}})))
            challenge = serializer.deserialize_message((await ws.receive(timeout=30)).data)
            await ws.send_bytes(serializer.serialize_message(request_id, request.RequestMessage(
                "", "authentication", {})))
            refusal = serializer.deserialize_message((await ws.receive(timeout=30)).data)
            return challenge["status"], refusal["status"]


def login_mode(port, user, password):
    checks = Checks()
    url = "ws://127.0.0.1:%d/gremlin" % port
    right = Client(url, "g", username=user, password=password)
    try:
        checks.check(script(right, "g.inject(1)") == [1], "the right password answers")
    finally:
        right.close()
    for who, secret in [(user, password + "x"), ("mallory", password)]:
        wrong = Client(url, "g", username=who, password=secret)
        try:
            checks.refused("login %s with a wrong password" % who, lambda: script(wrong, "g.inject(1)"),
                           says="Username and/or password are incorrect", never=secret)
        finally:
            wrong.close()
    nobody = Client(url, "g")
    try:
        script(nobody, "g.inject(1)")
        checks.check(False, "a request without credentials was answered")
    except ConfigurationError:
        checks.check(True, "the driver, challenged, has no credentials to send")
    finally:
        nobody.close()
    challenge, refusal = asyncio.run(unauthenticated(port))
    checks.check(challenge["code"] == 407, "no login: status %s, expected the 407 challenge" % challenge)
    checks.check(refusal["code"] == 401, "a login without a password: status %s, expected 401" % refusal)
    return checks.done()


def main():
    mode, port, a, b = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    return {"refused": refused_mode, "allowed": allowed_mode, "login": login_mode}[mode](port, a, b)


if __name__ == "__main__":
    sys.exit(main())
