"""deploy/compose.yaml, the Dockerfile its nodes are built from and the nginx conf it mounts, read
as one model: what each service runs, its health check, what it waits for, and where nginx sends
what. check() lists what does not agree between them without starting anything;
compose_on_loopback.py starts the same topology from this model.
"""
import os
import pathlib
import re

import yaml

# The container port each image serves on when its command does not say (the images' defaults).
IMAGE_PORTS = {"redis": 6379, "postgres": 5432, "nginx": 80}


def interpolate(value, env):
    """compose's variables: ${VAR}, ${VAR:-default}, ${VAR-default}, $VAR; $$ is a literal $."""
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def one(m):
        if m.group(0) == "$$":
            return "$"
        name, op, default = m.group(1) or m.group(4), m.group(2), m.group(3) or ""
        got = env.get(name)
        if op == ":-" and not got:
            return default
        if op == "-" and got is None:
            return default
        return got or ""

    return re.sub(r"\$\$|\$\{(\w+)(?:(:?-)([^}]*))?\}|\$(\w+)", one, value)


def flag(args, name):
    args = [str(a) for a in args or []]
    return args[args.index(name) + 1] if name in args[:-1] else None


class Model:
    def __init__(self, deploy, env=None):
        self.deploy = pathlib.Path(deploy).resolve()
        env = dict(os.environ if env is None else env)
        with open(self.deploy / "compose.yaml", encoding="utf-8") as f:
            doc = yaml.safe_load(f)  # PyYAML's safe loader resolves the `<<: *node` merge keys
        self.services = interpolate(doc.get("services") or {}, env)
        self.nodes = [n for n in self.services if self.kind(n) == "node"]
        self.nginx = next((n for n in self.services if self.kind(n) == "nginx"), None)
        self.entrypoint, self.volumes = [], []
        self.dockerfile = None
        build = (self.services[self.nodes[0]].get("build") or {}) if self.nodes else {}
        if build:
            self.dockerfile = self.deploy / build.get("context", ".") / build.get("dockerfile", "Dockerfile")
            text = self.dockerfile.read_text(encoding="utf-8") if self.dockerfile.exists() else ""
            final = text.split("\nFROM ")[-1]  # the runtime stage
            m = re.search(r"^ENTRYPOINT\s+(\[.*\])\s*$", final, re.M)
            self.entrypoint = yaml.safe_load(m.group(1)) if m else []
            self.volumes = [v for m in re.finditer(r"^VOLUME\s+(.*)$", final, re.M) for v in m.group(1).split()]
        self.nginx_conf_path = None
        for v in (self.services.get(self.nginx) or {}).get("volumes") or []:
            source, target = str(v).split(":")[:2]
            if target.startswith("/etc/nginx/conf.d/"):
                self.nginx_conf_path = (self.deploy / source).resolve()
        self.nginx_conf = (self.nginx_conf_path.read_text(encoding="utf-8")
                           if self.nginx_conf_path and self.nginx_conf_path.exists() else "")

    def kind(self, name):
        s = self.services[name] or {}
        if "build" in s:
            return "node"
        image = str(s.get("image", "")).split(":")[0].split("/")[-1]
        return image if image in IMAGE_PORTS else "other"

    def command(self, name):
        """The node's whole command line: the image's ENTRYPOINT, then the service's command."""
        return [str(a) for a in self.entrypoint + list(self.services[name].get("command") or [])]

    def port(self, name):
        """The port the service listens on inside its container."""
        if self.kind(name) == "node":
            return int(flag(self.command(name), "--port") or 8080)
        if self.kind(name) == "nginx":
            listens = self.nginx_listens()
            return listens[0] if listens else IMAGE_PORTS["nginx"]
        return IMAGE_PORTS.get(self.kind(name))

    def depends_on(self, name):
        deps = self.services[name].get("depends_on") or {}
        if isinstance(deps, list):
            return {d: "service_started" for d in deps}
        return {d: (c or {}).get("condition", "service_started") for d, c in deps.items()}

    def healthcheck(self, name):
        hc = self.services[name].get("healthcheck") or {}
        test = hc.get("test")
        if not test or hc.get("disable") or test == ["NONE"]:
            return None
        return {"test": ["CMD-SHELL", test] if isinstance(test, str) else [str(t) for t in test],
                "interval": seconds(hc.get("interval", "30s")), "timeout": seconds(hc.get("timeout", "30s")),
                "retries": int(hc.get("retries", 3)), "start_period": seconds(hc.get("start_period", "0s"))}

    def published(self):
        """(host port, container port) of every port nginx publishes."""
        out = []
        for p in (self.services.get(self.nginx) or {}).get("ports") or []:
            parts = str(p).split(":")
            out.append((int(parts[-2]), int(parts[-1].split("/")[0])))
        return out

    def nginx_listens(self):
        return [int(m.group(1).split(":")[-1]) for m in re.finditer(r"^\s*listen\s+([^\s;]+)", self.nginx_conf, re.M)]

    def nginx_upstreams(self):
        return {m.group(1): re.findall(r"^\s*server\s+([^\s;]+)", m.group(2), re.M)
                for m in re.finditer(r"upstream\s+(\S+)\s*\{([^}]*)\}", self.nginx_conf)}

    def nginx_locations(self):
        """location prefix -> its proxy_pass URL."""
        out = {}
        for m in re.finditer(r"location\s+(\S+)\s*\{([^}]*)\}", self.nginx_conf):
            target = re.search(r"proxy_pass\s+([^\s;]+)", m.group(2))
            out[m.group(1)] = target.group(1) if target else None
        return out


def seconds(text):
    """compose's durations: 1m30s, 500ms, 5s, or a bare number of seconds."""
    parts = re.findall(r"(\d+(?:\.\d+)?)(ms|us|h|m|s)?", str(text))
    unit = {"us": 1e-6, "ms": 0.001, "s": 1, "m": 60, "h": 3600, "": 1}
    return sum(float(n) * unit[u] for n, u in parts) if parts else 30
