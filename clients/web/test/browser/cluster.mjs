// Cluster redirects in Chromium (docs/cluster.md): two real nodes on loopback sharing a
// throw-away redis-server. A match created from a page on node A is listed on node B's lobby and
// joined from a page connected to B: B answers REDIRECT, the page moves to A (a new WebSocket,
// Hello with the same identity, the join again with the ticket) without ever showing "offline",
// and both pages play the match. A second match created from the page on A goes to the
// least-loaded node, B, by a redirect the page follows; then B is killed, and a join of that
// match from a page on A fails with a message that says B cannot be reached, the page still
// connected to A. Registered with
// ctest as "web: cluster".
// Usage: node cluster.mjs <duelhall binary> <built client dir>
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createMatch, openParticipant } from "./players.mjs";

const [binary, webRoot] = process.argv.slice(2);
if (!binary || !webRoot) {
  console.error("usage: node cluster.mjs <duelhall binary> <built client dir>");
  process.exit(2);
}
if (!existsSync(process.env.DUELHALL_CHROMIUM ?? "/usr/bin/chromium")) {
  console.error("Debian's chromium is missing: apt-get install -y chromium");
  process.exit(77);
}
if (spawnSync("redis-server", ["--version"]).status !== 0) {
  console.error("redis-server is missing: apt-get install -y redis-server");
  process.exit(77);
}

const freePort = () => new Promise((done) => {
  const s = createServer().listen(0, "127.0.0.1", () => {
    const { port } = s.address();
    s.close(() => done(port));
  });
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Starts `command` and resolves once `ready()` holds (checked every 100 ms, 15 s at most).
async function started(command, args, ready) {
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

async function readyz(port) {
  const r = await fetch(`http://127.0.0.1:${port}/readyz`);
  return r.status === 200;
}

// A node of the cluster on a free port, serving the built client.
async function startNode(name, redisPort, dir) {
  const port = await freePort();
  const node = await started(resolve(binary), ["--bind", "127.0.0.1", "--port", String(port),
    "--web-root", resolve(webRoot), "--data", join(dir, name), "--storage", "memory",
    "--cluster", `redis://127.0.0.1:${redisPort}`, "--node-name", name,
    "--cluster-secret", "the shared secret of the browser test cluster", "--threads", "2"],
  () => readyz(port));
  return { ...node, port, url: `http://127.0.0.1:${port}/` };
}

// The texts #link-state showed from now on (the page's connection state).
async function watchLinkState(page) {
  await page.evaluate(() => {
    window.linkStates = [];
    const note = () => {
      const text = document.getElementById("link-state")?.textContent ?? "";
      if (window.linkStates[window.linkStates.length - 1] !== text) window.linkStates.push(text);
    };
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}

const dir = mkdtempSync(join(tmpdir(), "duelhall-web-cluster-"));
const processes = [];
const opened = [];
let failed = false;
try {
  const redisPort = await freePort();
  processes.push((await started("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1",
    "--save", "", "--appendonly", "no", "--dir", dir], (log) => Promise.resolve(/Ready to accept/.test(log)))).proc);
  const a = await startNode("node-a", redisPort, dir);
  processes.push(a.proc);
  const b = await startNode("node-b", redisPort, dir);
  processes.push(b.proc);
  await sleep(1500); // both nodes' tables hold both

  // Created from a page on A (both empty: the tie goes to node-a), listed on B.
  const host = await openParticipant("Host", a.url);
  opened.push(host);
  const id = await createMatch(host, "force_battles", {});
  const guest = await openParticipant("Guest", b.url);
  opened.push(guest);
  const sockets = [];
  guest.page.on("websocket", (ws) => sockets.push(ws.url()));
  await guest.page.waitForSelector(`li[data-match="${id}"] button.join`, { timeout: 10_000 });
  await watchLinkState(guest.page);

  // Joined from B: the page follows the redirect to A and plays there.
  await guest.page.click(`li[data-match="${id}"] button.join`);
  await guest.page.waitForFunction((mid) => location.hash === `#/match/${mid}`, String(id), { timeout: 15_000 });
  for (const p of [host, guest]) await p.page.waitForSelector(".board:not(.waiting)", { timeout: 15_000 });
  if (!sockets.some((u) => u === `ws://127.0.0.1:${a.port}/ws`)) {
    throw new Error(`the guest's page never connected to node A: ${sockets.join(", ")}`);
  }
  const states = await guest.page.evaluate(() => window.linkStates);
  if (states.some((s) => /offline/.test(s))) throw new Error(`the page showed "offline" on the way: ${states.join(" | ")}`);
  const seat = await guest.page.evaluate((mid) => window.duelhall.matches.get(BigInt(mid))?.seat, String(id));
  if (seat !== 1) throw new Error(`the guest sits in seat ${seat}`);
  console.log(`ok: match ${id} created on node-a, joined from a page on node-b (${sockets.join(" -> ")})`);

  // A second match from the host's page: A now holds one, so it goes to the least-loaded node,
  // B, by a redirect the page follows. Then B dies, and a join from a page on A says so.
  await host.page.goto(host.url);
  await host.page.waitForSelector("#create-form");
  const second = await createMatch(host, "force_battles", {});
  const node = await host.page.evaluate((mid) => window.duelhall.matches.get(BigInt(mid))?.info?.node, String(second));
  if (node !== "node-b") throw new Error(`the second match went to ${node}, not the least-loaded node-b`);
  console.log(`ok: match ${second} created from a page on node-a was placed on node-b`);
  const late = await openParticipant("Late", a.url);
  opened.push(late);
  await late.page.waitForSelector(`li[data-match="${second}"] button.join`, { timeout: 10_000 });
  b.proc.kill("SIGKILL");
  await late.page.click(`li[data-match="${second}"] button.join`);
  await late.page.waitForFunction(() => /cannot be reached/.test(document.getElementById("flash")?.textContent ?? ""),
    undefined, { timeout: 20_000 });
  const flash = await late.page.innerText("#flash");
  if (!/Match \d+ is on server node-b \(ws:\/\/127\.0\.0\.1:\d+\/ws\), which cannot be reached/.test(flash)) {
    throw new Error(`the failed redirect shows "${flash}"`);
  }
  await late.page.waitForFunction(() => document.getElementById("link-state")?.textContent === "connected",
    undefined, { timeout: 10_000 });
  console.log(`ok: a join of match ${second} on a dead node says: ${flash.split("\n")[0]}`);
} catch (e) {
  failed = true;
  console.error(`FAIL: ${e.stack}`);
  for (const p of opened) {
    const seen = await p.page.evaluate(() => ({ hash: location.hash, flash: document.getElementById("flash")?.textContent,
      link: document.getElementById("link-state")?.textContent })).catch(() => ({}));
    console.error(`  ${p.name}: ${JSON.stringify(seen)}`);
  }
} finally {
  for (const p of opened) await p.close().catch(() => {});
  for (const p of processes) p.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
