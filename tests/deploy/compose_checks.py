"""What deploy/compose.yaml, the Dockerfile and deploy/compose-nginx.conf must agree on, checked
without starting anything: check(model, server_source) returns the problems found, in words.

- every service a depends_on names exists, one awaited healthy has a health check, the nodes wait
  for Redis and PostgreSQL to be healthy and nginx for every node;
- every host nginx sends to is a service, at the port that service listens on; `/` reaches every
  node; `/n/<node-name>/` reaches the node of that name, on its `/`;
- each node advertises ws://HOST:PORT/n/<its name>/ws, where PORT is the port nginx publishes and
  nginx listens on the container side of it;
- --cluster and --database name the Redis and PostgreSQL services at their ports, with the user,
  password and database PostgreSQL is created with; the cluster secret is the same on every node;
- each node's health check asks the node's own port for a path the server answers
  (server/net/static_files.cpp), and the data folder the Dockerfile's ENTRYPOINT gives is one of
  its VOLUMEs.
"""
import re
from urllib.parse import urlsplit

from compose_model import flag


def check(model, server_source):
    problems = []
    say = problems.append
    services = model.services
    kinds = {n: model.kind(n) for n in services}
    redis = [n for n, k in kinds.items() if k == "redis"]
    postgres = [n for n, k in kinds.items() if k == "postgres"]
    if len(redis) != 1 or len(postgres) != 1 or not model.nginx or len(model.nodes) < 3:
        return ["expected one Redis, one PostgreSQL, one nginx and three nodes: " + repr(kinds)]
    redis, postgres = redis[0], postgres[0]

    for name in services:
        for dep, condition in model.depends_on(name).items():
            if dep not in services:
                say(f"{name}: depends on {dep!r}, which is no service")
            elif condition == "service_healthy" and not model.healthcheck(dep):
                say(f"{name}: waits for {dep} to be healthy, which has no health check")
    for name in (redis, postgres) + tuple(model.nodes):
        if not model.healthcheck(name):
            say(f"{name}: no health check")
    for node in model.nodes:
        for dep in (redis, postgres):
            if model.depends_on(node).get(dep) != "service_healthy":
                say(f"{node}: does not wait for {dep} to be healthy (depends_on condition service_healthy)")
    for node in model.nodes:
        if model.depends_on(model.nginx).get(node) != "service_healthy":
            say(f"{model.nginx}: does not wait for {node} to be healthy: nginx resolves the nodes' names "
                "once, at its start (a node not running then stops it), and would send players to "
                "nodes not ready")

    # nginx: every address it proxies to, and its routes.
    if not model.nginx_conf:
        return problems + [f"{model.nginx}: mounts no nginx conf into /etc/nginx/conf.d/ that exists"]
    ports = {n: model.port(n) for n in services}
    upstreams = model.nginx_upstreams()
    locations = model.nginx_locations()

    def target_of(address):  # "host:port" -> the service it names, or a problem
        host, _, port = address.partition(":")
        if host not in services:
            say(f"nginx conf: {address} names no service of compose.yaml")
        elif int(port or 80) != ports[host]:
            say(f"nginx conf: {address}, but {host} listens on {ports[host]}")
        else:
            return host
        return None

    for name, servers in upstreams.items():
        for s in servers:
            target_of(s)
    routed = {}
    for prefix, url in locations.items():
        parts = urlsplit(url or "")
        if parts.netloc in upstreams:
            routed[prefix] = (set(upstreams[parts.netloc]), parts.path)
        elif parts.netloc:
            routed[prefix] = ({parts.netloc}, parts.path)
            target_of(parts.netloc)
    every = {f"{n}:{ports[n]}" for n in model.nodes}
    if "/" not in routed or routed["/"][0] != every:
        say(f"nginx conf: location / does not reach every node ({sorted(every)})")

    published = model.published()
    if len(published) != 1:
        say(f"{model.nginx}: publishes {len(published)} ports; the nodes advertise one")
    elif published[0][1] not in model.nginx_listens():
        say(f"{model.nginx}: publishes container port {published[0][1]}, but the conf listens on "
            f"{model.nginx_listens()}")
    secrets = set()
    for node in model.nodes:
        args = model.command(node)
        name = flag(args, "--node-name")
        if not name:
            say(f"{node}: no --node-name")
            continue
        ad = urlsplit(flag(args, "--advertise-address") or "")
        if published and (ad.scheme != "ws" or ad.port != published[0][0] or ad.path != f"/n/{name}/ws"):
            say(f"{node}: advertises {ad.geturl()!r}, not ws://HOST:{published[0][0]}/n/{name}/ws "
                "(nginx's published port and the node's own route)")
        if routed.get(f"/n/{name}/") != ({f"{node}:{ports[node]}"}, "/"):
            say(f"nginx conf: location /n/{name}/ does not proxy_pass to http://{node}:{ports[node]}/")
        cluster = urlsplit(flag(args, "--cluster") or "")
        if (cluster.scheme, cluster.hostname, cluster.port) != ("redis", redis, ports[redis]):
            say(f"{node}: --cluster {cluster.geturl()!r} is not redis://{redis}:{ports[redis]}")
        db = urlsplit(flag(args, "--database") or "")
        env = services[postgres].get("environment") or {}
        user = env.get("POSTGRES_USER", "postgres")
        want = ("postgresql", postgres, ports[postgres], user, env.get("POSTGRES_PASSWORD"),
                "/" + env.get("POSTGRES_DB", user))
        if (db.scheme, db.hostname, db.port, db.username, db.password, db.path) != want:
            say(f"{node}: --database {db.geturl()!r} is not PostgreSQL's service, user, password "
                "and database")
        secrets.add((services[node].get("environment") or {}).get("DUELHALL_CLUSTER_SECRET"))
        data = flag(args, "--data")
        if data and data not in model.volumes:
            say(f"{node}: --data {data} is not a VOLUME of the Dockerfile's image")
        test = " ".join((model.healthcheck(node) or {}).get("test", []))
        if not re.search(rf"(127\.0\.0\.1|localhost)[/:]{ports[node]}\b", test):
            say(f"{node}: its health check does not ask the node's port {ports[node]}")
        if "200" not in test:
            say(f"{node}: its health check does not look for the answer 200")
        for path in re.findall(r"GET (\S+) HTTP", test) or ["(no GET)"]:
            if f'"{path}"' not in server_source:
                say(f"{node}: its health check asks {path}, which the server does not answer")
    if len(secrets) != 1 or len(next(iter(secrets)) or "") < 16:
        say("the nodes' DUELHALL_CLUSTER_SECRET differ or are shorter than 16 characters")
    return problems
