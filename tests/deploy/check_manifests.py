#!/usr/bin/env python3
"""Checks deploy/'s cluster manifests: every file is valid YAML and has what a cluster needs.

    check_manifests.py DEPLOY_DIR

deploy/compose.yaml: Redis, PostgreSQL, nginx publishing a port, and three or more nodes built
from the Dockerfile, each given --cluster, --database, --node-name (distinct) and
--advertise-address, with a health check on /readyz. deploy/kubernetes/*.yaml: one StatefulSet of
nodes whose container passes --cluster and --database, probes /readyz for readiness, and names its
port; a PodDisruptionBudget whose selector matches the StatefulSet's pods; a headless Service named
by the StatefulSet; Services with ports, each selecting some workload's pods. Prints every problem
and exits 1 if there is one.
"""
import pathlib
import sys

import yaml

problems = []


def problem(where, text):
    problems.append(f"{where}: {text}")


def load_all(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [d for d in yaml.safe_load_all(f) if d is not None]
    except yaml.YAMLError as e:
        problem(path, f"not valid YAML: {e}")
        return []


def flag_value(args, flag):
    args = [str(a) for a in args or []]
    return args[args.index(flag) + 1] if flag in args and args.index(flag) + 1 < len(args) else None


def check_compose(path):
    docs = load_all(path)
    if len(docs) != 1 or not isinstance(docs[0], dict):
        return problem(path, "expected one document")
    services = docs[0].get("services") or {}
    images = {name: str((s or {}).get("image", "")) for name, s in services.items()}
    if not any(i.startswith("redis") for i in images.values()):
        problem(path, "no Redis service")
    if not any(i.startswith("postgres") for i in images.values()):
        problem(path, "no PostgreSQL service")
    nginx = [n for n, i in images.items() if i.startswith("nginx")]
    if not nginx or not services[nginx[0]].get("ports"):
        problem(path, "no nginx service publishing a port")
    nodes = {n: s for n, s in services.items() if "--cluster" in [str(a) for a in s.get("command") or []]}
    if len(nodes) < 3:
        problem(path, f"{len(nodes)} node services with --cluster; a cluster here has three")
    names = set()
    for name, s in nodes.items():
        args = s.get("command")
        if not str(flag_value(args, "--cluster") or "").startswith("redis://"):
            problem(path, f"{name}: --cluster is not a redis:// address")
        if not str(flag_value(args, "--database") or "").startswith("postgresql://"):
            problem(path, f"{name}: no --database postgresql://")
        node_name = flag_value(args, "--node-name")
        if not node_name or node_name in names:
            problem(path, f"{name}: no --node-name, or one another node has")
        names.add(node_name)
        if not flag_value(args, "--advertise-address"):
            problem(path, f"{name}: no --advertise-address")
        if "build" not in s or "dockerfile" not in (s.get("build") or {}):
            problem(path, f"{name}: not built from the Dockerfile")
        test = " ".join(str(t) for t in (s.get("healthcheck") or {}).get("test") or [])
        if "/readyz" not in test:
            problem(path, f"{name}: no health check on /readyz")


def check_kubernetes(folder):
    docs = []
    for path in sorted(folder.glob("*.yaml")):
        for d in load_all(path):
            if not isinstance(d, dict) or "kind" not in d or "apiVersion" not in d:
                problem(path, "a document without kind and apiVersion")
                continue
            docs.append((path, d))
    kinds = lambda k: [(p, d) for p, d in docs if d["kind"] == k]
    workloads = kinds("StatefulSet") + kinds("Deployment")
    pod_labels = [(d["spec"]["template"]["metadata"].get("labels") or {}) for _, d in workloads]
    nodes = [(p, d) for p, d in kinds("StatefulSet")
             if any("--cluster" in [str(a) for a in c.get("args") or []]
                    for c in d["spec"]["template"]["spec"]["containers"])]
    if len(nodes) != 1:
        return problem(folder, f"{len(nodes)} StatefulSets of nodes (with --cluster); expected one")
    path, sts = nodes[0]
    spec = sts["spec"]
    labels = spec["template"]["metadata"].get("labels") or {}
    selector = (spec.get("selector") or {}).get("matchLabels") or {}
    if not selector or any(labels.get(k) != v for k, v in selector.items()):
        problem(path, "the StatefulSet's selector does not match its pods' labels")
    container = spec["template"]["spec"]["containers"][0]
    args = container.get("args")
    if not str(flag_value(args, "--cluster") or "").startswith("redis://"):
        problem(path, "the nodes' --cluster is not a redis:// address")
    if not flag_value(args, "--database"):
        problem(path, "the nodes get no --database")
    for flag in ("--node-name", "--advertise-address"):
        if not flag_value(args, flag):
            problem(path, f"the nodes get no {flag}")
    readiness = ((container.get("readinessProbe") or {}).get("httpGet") or {})
    if readiness.get("path") != "/readyz":
        problem(path, "the nodes' readiness probe is not GET /readyz")
    if not container.get("ports"):
        problem(path, "the node container declares no port")
    pdbs = kinds("PodDisruptionBudget")
    if not pdbs:
        problem(folder, "no PodDisruptionBudget")
    for p, pdb in pdbs:
        match = ((pdb.get("spec") or {}).get("selector") or {}).get("matchLabels") or {}
        if not match or any(labels.get(k) != v for k, v in match.items()):
            problem(p, f"PodDisruptionBudget {pdb['metadata']['name']} selects no node pods")
        if not {"minAvailable", "maxUnavailable"} & set(pdb.get("spec") or {}):
            problem(p, "PodDisruptionBudget without minAvailable or maxUnavailable")
    services = kinds("Service")
    headless = [d for _, d in services
                if d["metadata"]["name"] == spec.get("serviceName") and d["spec"].get("clusterIP") == "None"]
    if not headless:
        problem(path, f"serviceName {spec.get('serviceName')!r} names no headless Service")
    for p, svc in services:
        s = svc.get("spec") or {}
        if not s.get("ports") or any("port" not in port for port in s["ports"]):
            problem(p, f"Service {svc['metadata']['name']} has no ports")
        sel = s.get("selector") or {}
        base = {k: v for k, v in sel.items() if not k.startswith("statefulset.kubernetes.io/")}
        if not any(all(l.get(k) == v for k, v in base.items()) for l in pod_labels) or not base:
            problem(p, f"Service {svc['metadata']['name']} selects no workload's pods")
    if not any(s["spec"].get("clusterIP") != "None" and s["spec"].get("selector") == selector
               for _, s in services):
        problem(folder, "no Service in front of every node")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    deploy = pathlib.Path(sys.argv[1])
    check_compose(deploy / "compose.yaml")
    check_kubernetes(deploy / "kubernetes")
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print("deploy/: compose.yaml and kubernetes/ have what a cluster needs")


if __name__ == "__main__":
    main()
