// What the browser's cluster test starts: a throw-away redis-server, a throw-away PostgreSQL
// (initdb in a temporary folder, run as the `postgres` user when the test runs as root, as
// tests/support/throwaway_postgres.hpp and scripts/bench-cluster.sh do) and duelhall nodes, each
// on a free loopback port; and a watch over a page's connection state.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";

export const freePort = () => new Promise((done) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const { port } = s.address();
    s.close(() => done(port));
  });
});
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Starts `command` and resolves once `ready()` holds (checked every 100 ms, 15 s at most).
export async function started(command, args, ready) {
  const proc = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  proc.stdout.on("data", (c) => (log += c));
  proc.stderr.on("data", (c) => (log += c));
  let exited = false;
  proc.on("exit", () => (exited = true));
  for (let i = 0; i < 150; i++) {
    if (exited) break;
    if (await ready(log).catch(() => false)) return { proc, log: () => log };
    await sleep(100);
  }
  proc.kill("SIGKILL");
  throw new Error(`${command} did not start:\n${log}`);
}

export async function startRedis(dir) {
  const port = await freePort();
  const redis = await started("redis-server", ["--port", String(port), "--bind", "127.0.0.1",
    "--save", "", "--appendonly", "no", "--dir", dir], (log) => Promise.resolve(/Ready to accept/.test(log)));
  return { ...redis, port };
}

async function readyz(port) {
  const r = await fetch(`http://127.0.0.1:${port}/readyz`);
  return r.status === 200;
}

// A node of the cluster on a free port, serving the built client from `webRoot`; `storage`: the
// arguments that choose its store (`--storage memory`, or `--database <url>`).
export async function startNode(binary, webRoot, name, redisPort, dir, storage = ["--storage", "memory"]) {
  const port = await freePort();
  const node = await started(resolve(binary), ["--bind", "127.0.0.1", "--port", String(port),
    "--web-root", resolve(webRoot), "--data", join(dir, name), ...storage,
    "--cluster", `redis://127.0.0.1:${redisPort}`, "--node-name", name,
    "--cluster-secret", "the shared secret of the browser test cluster", "--threads", "2"],
  () => readyz(port));
  return { ...node, port, url: `http://127.0.0.1:${port}/`, ws: `ws://127.0.0.1:${port}/ws` };
}

// Debian's highest PostgreSQL's binaries, or null when none is installed.
function postgresBin() {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb")));
  versions.sort((x, y) => Number(x) - Number(y));
  return versions.length ? join(root, versions[versions.length - 1], "bin") : null;
}

// A throw-away PostgreSQL in `dir` with one empty database; null when PostgreSQL is not
// installed. `url`: the database's; `stop()` stops the server at once.
export async function startPostgres(dir) {
  const bin = postgresBin();
  if (!bin) return null;
  const root = process.getuid?.() === 0;
  const asPostgres = (command, args) => {
    const run = root ? spawnSync("runuser", ["-u", "postgres", "--", command, ...args], { encoding: "utf8" })
      : spawnSync(command, args, { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`${command} failed: ${run.stdout}${run.stderr}`);
  };
  const pg = join(dir, "pg");
  mkdirSync(pg);
  if (root) {
    const user = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const group = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    chmodSync(dir, 0o755); // the postgres user goes through it
    chownSync(pg, Number(user.stdout), Number(group.stdout));
  }
  asPostgres(join(bin, "initdb"), ["-D", join(pg, "data"), "-U", "duelhall", "-A", "trust", "-E", "UTF8",
    "--no-sync", "--no-instructions"]);
  const port = await freePort();
  asPostgres(join(bin, "pg_ctl"), ["-D", join(pg, "data"), "-l", join(pg, "log"), "-w", "-o",
    `-p ${port} -k ${pg} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`, "start"]);
  const created = spawnSync(join(bin, "createdb"), ["-h", "127.0.0.1", "-p", String(port), "-U", "duelhall", "web"],
    { encoding: "utf8" });
  if (created.status !== 0) throw new Error(`createdb failed: ${created.stderr}`);
  return {
    url: `postgresql://duelhall@127.0.0.1:${port}/web`,
    stop: () => {
      try {
        asPostgres(join(bin, "pg_ctl"), ["-D", join(pg, "data"), "-m", "immediate", "stop"]);
      } catch {
        // already stopped
      }
    },
  };
}

// The texts #link-state showed from now on (the page's connection state), in window.linkStates.
export async function watchLinkState(page) {
  await page.evaluate(() => {
    window.linkStates = [];
    const note = () => {
      const text = document.getElementById("link-state")?.textContent ?? "";
      if (window.linkStates[window.linkStates.length - 1] !== text) window.linkStates.push(text);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
