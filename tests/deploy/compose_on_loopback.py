#!/usr/bin/env python3
"""deploy/compose.yaml's cluster brought up as processes on loopback, then played through nginx.

    compose_on_loopback.py DEPLOY_DIR --static
    compose_on_loopback.py DEPLOY_DIR DUELHALL_BINARY PLAYER_BINARY

No container runs here (no Docker daemon, no image registry), so each service runs from this
machine's Debian packages with exactly what compose.yaml gives it, translated only where a
container differs: a service's host name and container port become 127.0.0.1 and a free port,
volumes become temporary folders, the node's ENTRYPOINT (from the Dockerfile) binds 127.0.0.1
instead of every interface of its container, and --trusted-proxy names loopback, where nginx now
is. Redis gets compose's command; PostgreSQL the user, password and database of its environment
(password authentication over TCP, as the image sets it up); the nodes their command line and
environment; nginx compose-nginx.conf with only its upstream addresses and listen port rewritten.
Services start in depends_on order, each waiting for the conditions it names; a health check is
compose's own command, translated the same way, and must fail before its service starts and pass
after. Then PLAYER_BINARY plays through nginx's one port (DUELHALL_COMPOSE_PORT, the node names
in DUELHALL_COMPOSE_NODES). Exits 0 only if everything held; prints what did not.
"""
import ctypes
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, str(pathlib.Path(__file__).parent))
from compose_checks import check  # noqa: E402
from compose_model import Model, flag  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
libc = ctypes.CDLL("libc.so.6", use_errno=True)


class Failed(Exception):
    pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_bin():
    bins = sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/postgres"), key=lambda p: int(p.parts[-3]))
    if not bins:
        raise Failed("no PostgreSQL under /usr/lib/postgresql (scripts/install-deps.sh installs it)")
    return bins[-1].parent


class Cluster:
    def __init__(self, model, binary, work):
        self.model, self.binary, self.work = model, binary, work
        self.ports = {name: free_port() for name in model.services}
        self.procs, self.logs, self.healthy = {}, {}, set()
        self.as_postgres = os.geteuid() == 0

    def spawn(self, name, argv, env=None, user=None):
        """Starts `argv` with its output in NAME.log; it dies with this script (PR_SET_PDEATHSIG)."""
        self.logs[name] = self.work / f"{name}.log"
        program = shutil.which(argv[0], path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")
        if not program:
            raise Failed(f"{name}: {argv[0]} is not installed (scripts/install-deps.sh installs it)")
        with open(self.logs[name], "ab") as log:
            return subprocess.Popen([program] + argv[1:], stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, env=env, user=user,
                                    preexec_fn=lambda: libc.prctl(1, signal.SIGKILL))

    def local(self, text):
        """A command's addresses on loopback: SERVICE:PORT, and the host's published port (the
        clients' view: --advertise-address) which is now nginx's."""
        for other, port in self.ports.items():
            text = re.sub(rf"(?<=[/@]){re.escape(other)}:{self.model.port(other)}\b", f"127.0.0.1:{port}", text)
        for host_port, _ in self.model.published():
            text = re.sub(rf"\b(localhost|127\.0\.0\.1):{host_port}\b", rf"\g<1>:{self.ports[self.model.nginx]}", text)
        return text

    def health_argv(self, name):
        hc = self.model.healthcheck(name)
        # Inside its container a check reaches its own service at 127.0.0.1:PORT (or /PORT).
        own = rf"\b(127\.0\.0\.1|localhost)([/:]){self.model.port(name)}\b"
        kind, argv = hc["test"][0], [re.sub(own, rf"\g<1>\g<2>{self.ports[name]}", a) for a in hc["test"][1:]]
        argv = ["/bin/sh", "-c", argv[0]] if kind == "CMD-SHELL" else argv
        port = str(self.ports[name])
        if argv[0] == "redis-cli":
            argv[1:1] = ["-p", port]
        if argv[0] == "pg_isready":
            argv[1:1] = ["-h", "127.0.0.1", "-p", port]
        return argv

    def health_passes(self, name):
        hc = self.model.healthcheck(name)
        env = dict(os.environ, **{k: str(v) for k, v in (self.model.services[name].get("environment") or {}).items()})
        try:
            return subprocess.run(self.health_argv(name), env=env, capture_output=True, timeout=hc["timeout"]).returncode == 0
        except subprocess.TimeoutExpired:
            return False

    def wait_healthy(self, name):
        if name in self.healthy:
            return
        hc = self.model.healthcheck(name)
        if not hc:
            raise Failed(f"{name} is awaited healthy but has no health check")
        deadline = time.monotonic() + hc["start_period"] + hc["interval"] * hc["retries"]
        while not self.health_passes(name):
            proc = self.procs.get(name)
            if proc and proc.poll() is not None:
                raise Failed(f"{name} exited with {proc.returncode} before it was healthy")
            if time.monotonic() > deadline:
                raise Failed(f"{name} is not healthy after {hc['retries']} x {hc['interval']} s: "
                             f"{' '.join(self.health_argv(name))} fails")
            time.sleep(0.25)
        self.healthy.add(name)
        print(f"{name}: healthy ({' '.join(self.health_argv(name))})", flush=True)

    def start(self, name):
        kind = self.model.kind(name)
        folder = self.work / name
        folder.mkdir()
        if kind == "redis":
            argv = [str(a) for a in self.model.services[name].get("command") or ["redis-server"]]
            self.procs[name] = self.spawn(name, argv + ["--port", str(self.ports[name]), "--bind", "127.0.0.1",
                                                        "--dir", str(folder)])
        elif kind == "postgres":
            self.start_postgres(name, folder)
        elif kind == "node":
            self.procs[name] = self.spawn(name, self.node_argv(name, folder), env=self.node_env(name))
        elif kind == "nginx":
            self.start_nginx(name, folder)
        else:
            raise Failed(f"{name}: a service of an image this test does not know")
        print(f"{name}: started ({' '.join(map(str, self.procs[name].args))})", flush=True)

    def node_argv(self, name, folder):
        args = self.model.command(name)
        out, i = [self.binary], 1
        replace = {"--bind": "127.0.0.1", "--data": str(folder), "--port": str(self.ports[name]),
                   "--web-root": str(ROOT / "clients/web/dist"), "--trusted-proxy": "127.0.0.0/8"}
        while i < len(args):
            if args[i] in replace and i + 1 < len(args):
                out += [args[i], replace[args[i]]]
                i += 2
            else:
                out.append(self.local(args[i]))
                i += 1
        return out

    def node_env(self, name):
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
        env.update({k: str(v) for k, v in (self.model.services[name].get("environment") or {}).items()})
        return env

    def start_postgres(self, name, folder):
        env = self.model.services[name].get("environment") or {}
        user = env.get("POSTGRES_USER", "postgres")
        password, database = env.get("POSTGRES_PASSWORD", ""), env.get("POSTGRES_DB", user)
        owner = "postgres" if self.as_postgres else None
        if owner:
            shutil.chown(folder, owner, owner)
        (folder / "pw").write_text(password)
        if owner:
            shutil.chown(folder / "pw", owner, owner)
        bin = pg_bin()
        init = subprocess.run([str(bin / "initdb"), "-D", str(folder / "data"), "-U", user, "--pwfile", str(folder / "pw"),
                               "--auth-local", "trust", "--auth-host", "scram-sha-256", "-E", "UTF8", "--no-sync"],
                              user=owner, capture_output=True, text=True)
        if init.returncode != 0:
            raise Failed(f"initdb failed: {init.stdout}{init.stderr}")
        # fsync off as in every test here: the database is thrown away.
        self.procs[name] = self.spawn(name, [str(bin / "postgres"), "-D", str(folder / "data"), "-p", str(self.ports[name]),
                                             "-k", str(folder), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"],
                                      user=owner)
        # The image creates POSTGRES_DB before it serves; here once the server answers.
        deadline = time.monotonic() + 30
        while subprocess.run([str(bin / "pg_isready"), "-q", "-h", str(folder), "-p", str(self.ports[name])]).returncode:
            if time.monotonic() > deadline or self.procs[name].poll() is not None:
                raise Failed("PostgreSQL did not start")
            time.sleep(0.1)
        if database != "postgres":
            subprocess.run([str(bin / "createdb"), "-h", str(folder), "-p", str(self.ports[name]), "-U", user, database],
                           user=owner, check=True)

    def start_nginx(self, name, folder):
        conf = self.model.nginx_conf
        for other in self.model.services:
            conf = re.sub(rf"(server\s+|http://){re.escape(other)}:{self.model.port(other)}\b",
                          rf"\g<1>127.0.0.1:{self.ports[other]}", conf)
        published = {c for _, c in self.model.published()}
        conf = re.sub(r"(?m)^(\s*listen\s+)(\d+)",
                      lambda m: m.group(1) + f"127.0.0.1:{self.ports[name] if int(m.group(2)) in published else free_port()}",
                      conf)
        (folder / "default.conf").write_text(conf)
        # What the image's /etc/nginx/nginx.conf gives around conf.d/, with this folder's paths.
        temps = "".join(f"{t}_temp_path {folder / t};\n" for t in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (folder / "nginx.conf").write_text(
            f"daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} notice;\n"
            f"events {{ worker_connections 1024; }}\nhttp {{\naccess_log {folder / 'access.log'};\n{temps}"
            f"keepalive_timeout 65;\ninclude {folder / 'default.conf'};\n}}\n")
        self.logs[name + " error.log"] = folder / "error.log"
        self.procs[name] = self.spawn(name, ["nginx", "-p", str(folder), "-c", str(folder / "nginx.conf"),
                                             "-e", str(folder / "error.log")])
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.ports[name]), timeout=1).close()
                return
            except OSError:
                if time.monotonic() > deadline or self.procs[name].poll() is not None:
                    raise Failed("nginx did not start")
                time.sleep(0.1)

    def up(self):
        order, seen = [], set()

        def visit(name, path=()):
            if name in path:
                raise Failed(f"depends_on loops: {' -> '.join(path + (name,))}")
            if name not in seen:
                for dep in self.model.depends_on(name):
                    visit(dep, path + (name,))
                seen.add(name)
                order.append(name)

        for name in self.model.services:
            visit(name)
        for name in order:
            for dep, condition in self.model.depends_on(name).items():
                if condition == "service_healthy":
                    self.wait_healthy(dep)
            if self.model.healthcheck(name) and self.health_passes(name):
                raise Failed(f"{name}: its health check passes before {name} has started")
            self.start(name)
        for name in order:
            if self.model.healthcheck(name):
                self.wait_healthy(name)

    def down(self):
        stops = {"postgres": signal.SIGINT, "nginx": signal.SIGQUIT}
        for name in reversed(list(self.procs)):
            proc = self.procs[name]
            if proc.poll() is None:
                proc.send_signal(stops.get(self.model.kind(name), signal.SIGTERM))
        for proc in self.procs.values():
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def tails(self):
        for name, path in self.logs.items():
            text = path.read_text(errors="replace") if path.exists() else ""
            print(f"--- {name} (last lines) ---\n" + "\n".join(text.splitlines()[-15:]))


def main():
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 3 and sys.argv[2] != "--static"):
        sys.exit(__doc__)
    # As a deployment must (compose.yaml's default is a public example the nodes refuse).
    os.environ.setdefault("DUELHALL_CLUSTER_SECRET", "the compose-on-loopback test's own secret")
    model = Model(sys.argv[1])
    server_source = (ROOT / "server/net/static_files.cpp").read_text(encoding="utf-8")
    problems = check(model, server_source)
    for p in problems:
        print("compose:", p)
    if problems or sys.argv[2] == "--static":
        sys.exit(1 if problems else 0)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped by SIGTERM"))
    work = pathlib.Path(tempfile.mkdtemp(prefix="duelhall-compose-"))
    work.chmod(0o755)
    cluster = Cluster(model, sys.argv[2], work)
    ok = False
    try:
        cluster.up()
        door = cluster.ports[model.nginx]
        names = [flag(model.command(n), "--node-name") for n in model.nodes]
        env = dict(os.environ, DUELHALL_COMPOSE_PORT=str(door), DUELHALL_COMPOSE_NODES=" ".join(names))
        print(f"playing through nginx on 127.0.0.1:{door}", flush=True)
        ok = subprocess.run([sys.argv[3]], env=env).returncode == 0
        for name, proc in cluster.procs.items():
            if proc.poll() is not None:
                print(f"{name} exited with {proc.returncode} while the cluster ran")
                ok = False
    except Failed as e:
        print("compose:", e)
    finally:
        cluster.down()
        if not ok:
            cluster.tails()
        shutil.rmtree(work, ignore_errors=True)
    print("compose: the cluster of compose.yaml came up on loopback and played through nginx" if ok else "compose: FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
