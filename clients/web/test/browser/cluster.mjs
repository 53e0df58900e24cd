// Cluster redirects in Chromium (docs/cluster.md): two real nodes on loopback sharing a
// throw-away redis-server. A match created from a page on node A is listed on node B's lobby and
// joined from a page connected to B: B answers REDIRECT, the page moves to A (a new WebSocket,
// Hello with the same identity, the join again with the ticket) without ever showing "offline",
// and both pages play the match. A second match created from the page on A goes to the
// least-loaded node, B, by a redirect the page follows; then B is killed, and a join of that
// match from a page on A fails with a message that says B cannot be reached, the page still
// connected to A. Before B dies, a fresh page on each node presses the same quick-pairing button
// and both land in one match, the page on the other node following its Paired's redirect. Last,
// on two more nodes sharing a throw-away PostgreSQL, a page that only spectates follows its match
// when the match's node is paused past its lease and another node adopts the match
// (docs/cluster.md, Failover). Registered with ctest as "web: cluster".
// Usage: node cluster.mjs <duelhall binary> <built client dir>
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sleep, startNode, startPostgres, startRedis, watchLinkState } from "./cluster_nodes.mjs";
import { actOnce, chooser, createMatch, matchState, openParticipant, openParticipantsTogether, routeMatchId } from "./players.mjs";

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

// Quick pairing across the nodes (docs/pairing.md, "Across a cluster"): a fresh page on each node
// presses the same button; the pairing is made once, the match on one node, and the page on the
// other is pushed Paired with a redirect, moves there and joins with the ticket. Both land in one
// match, on the match's node, never "offline", and a move made on one shows on the other.
const PAIR_BUTTON = "#pair-jedi_duel-rapid";
async function pairedAcrossNodes(a, b) {
  const began = Date.now();
  const pair = await openParticipantsTogether([["Pia", a.url], ["Pat", b.url]]);
  const [pia, pat] = pair.people;
  opened.push(pia, pat);
  browsers.push(pair);
  for (const p of [pia, pat]) {
    await p.page.waitForSelector(PAIR_BUTTON);
    await watchLinkState(p.page);
  }
  await pia.page.click(PAIR_BUTTON);
  await pia.page.waitForSelector("#seek-cancel");
  const pressed = Date.now();
  await pat.page.click(PAIR_BUTTON);
  const [one, two] = await Promise.all([pia, pat].map((p) => p.page
    .waitForFunction(() => /#\/match\/\d+/.test(location.hash), undefined, { timeout: 10_000 })
    .then(() => routeMatchId(p.page))));
  const took = Date.now() - pressed;
  if (one !== two) throw new Error(`paired into two matches: ${one} and ${two}`);
  for (const p of [pia, pat]) await p.page.waitForSelector(".board:not(.waiting)", { timeout: 15_000 });
  // Both pages' connections end on the match's node, the page opened on the other moved there.
  const where = await Promise.all([pia, pat].map((p) => p.page.evaluate((mid) => ({
    address: window.duelhall.conn.address, seat: window.duelhall.matches.get(BigInt(mid))?.seat }), String(one))));
  if (where[0].address !== where[1].address) throw new Error(`the pages sit on two nodes: ${JSON.stringify(where)}`);
  if (where.map((w) => w.seat).sort().join() !== "0,1") throw new Error(`the paired seats: ${JSON.stringify(where)}`);
  const home = [a, b].find((n) => n.ws === where[0].address);
  if (!home) throw new Error(`the pages sit on no node of the cluster: ${JSON.stringify(where)}`);
  const node = home === a ? "node-a" : "node-b";
  const moved = home === a ? pat : pia; // opened on the other node
  for (const p of [pia, pat]) {
    const states = await p.page.evaluate(() => window.linkStates);
    if (states.some((s) => /offline/.test(s))) throw new Error(`${p.name} showed "offline": ${states.join(" | ")}`);
  }
  // A move: made by whichever seat is offered one, seen by the other.
  const pick = chooser(33);
  let mover = null;
  for (let i = 0; i < 100 && !mover; i++) {
    for (const p of [pia, pat]) if (!mover && (await p.page.$("#actions button.action"))) mover = p;
    if (!mover) await sleep(100);
  }
  if (!mover) throw new Error(`no seat of match ${one} is offered a move`);
  const other = mover === pia ? pat : pia;
  const before = (await matchState(other.page, one)).seq;
  await actOnce(mover.page, pick);
  await other.page.waitForFunction(([mid, seq]) => Number(window.duelhall.matches.get(BigInt(mid))?.seq ?? 0) > seq,
    [String(one), before], { timeout: 10_000 });
  opened.splice(opened.indexOf(pia), 2);
  browsers.splice(browsers.indexOf(pair), 1);
  await pair.close();
  console.log(`ok: a page on each node paired into match ${one} on ${node} (${moved.name}'s page followed ` +
    `its redirect), ${took} ms after the second press; ${mover.name} played a move, seen by ${other.name} ` +
    `(this step: ${((Date.now() - began) / 1000).toFixed(1)} s)`);
}

const dir = mkdtempSync(join(tmpdir(), "duelhall-web-cluster-"));
const processes = [];
const stops = [];
const opened = [];
const browsers = []; // from openParticipantsTogether, closed after their participants
let failed = false;
try {
  const redis = await startRedis(dir);
  processes.push(redis.proc);
  const a = await startNode(binary, webRoot, "node-a", redis.port, dir);
  processes.push(a.proc);
  const b = await startNode(binary, webRoot, "node-b", redis.port, dir);
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
  await pairedAcrossNodes(a, b);
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
  for (const p of opened.splice(0)) await p.close();

  // A page that only spectates follows its match to the node that adopted it: a cluster of its
  // own on a throw-away PostgreSQL (adoption reads the shared log). The match is on node-c,
  // watched from a page opened on node-d (sent to node-c); node-c is paused past its lease, node-d
  // adopts the match, and when node-c wakes it closes the page's connection with 1012
  // MATCH_MOVED: the page reconnects, is sent to node-d and watches the match there.
  const pg = await startPostgres(dir);
  if (!pg) {
    console.log("skipped: a spectator over a failover (PostgreSQL is not installed)");
  } else {
    stops.push(pg.stop);
    const redis2 = await startRedis(dir);
    processes.push(redis2.proc);
    const storage = ["--database", pg.url];
    const c = await startNode(binary, webRoot, "node-c", redis2.port, dir, storage);
    processes.push(c.proc);
    const d = await startNode(binary, webRoot, "node-d", redis2.port, dir, storage);
    processes.push(d.proc);
    await sleep(1500);
    const player = await openParticipant("Player", c.url);
    opened.push(player);
    const moved = await createMatch(player, "force_battles", { vsComputer: true });
    const watcher = await openParticipant("Watcher", d.url);
    opened.push(watcher);
    const sockets = [];
    watcher.page.on("websocket", (ws) => sockets.push(ws.url()));
    await watcher.page.waitForSelector(`li[data-match="${moved}"] button.spectate`, { timeout: 10_000 });
    await watcher.page.click(`li[data-match="${moved}"] button.spectate`);
    await watcher.page.waitForFunction((mid) => location.hash === `#/match/${mid}`, String(moved), { timeout: 15_000 });
    await watcher.page.waitForSelector(".board", { timeout: 15_000 });
    const address = () => watcher.page.evaluate(() => window.duelhall.conn.address);
    if ((await address()) !== c.ws) throw new Error(`the watcher is on ${await address()}, not node-c`);
    await watchLinkState(watcher.page);
    c.proc.kill("SIGSTOP");
    const lease = () => spawnSync("redis-cli", ["-p", String(redis2.port), "GET", `duelhall:lease:${moved}`],
      { encoding: "utf8" }).stdout.trim();
    for (let i = 0; i < 150 && lease() !== "node-d"; i++) await sleep(100);
    if (lease() !== "node-d") throw new Error(`node-d did not adopt match ${moved} (lease: ${lease()})`);
    await sleep(500); // its claim and rebuild
    c.proc.kill("SIGCONT");
    await watcher.page.waitForFunction((ws) => window.duelhall.conn.address === ws, d.ws, { timeout: 20_000 });
    await watcher.page.waitForFunction((mid) => {
      const m = window.duelhall.matches.get(BigInt(mid));
      return window.duelhall.conn.live && m?.view && m.seat === -1;
    }, String(moved), { timeout: 15_000 });
    const watched = await watcher.page.evaluate(() => window.linkStates);
    if (watched.some((t) => /offline/.test(t))) throw new Error(`the watcher showed "offline": ${watched.join(" | ")}`);
    if (!sockets.includes(d.ws)) throw new Error(`the watcher never connected to node-d: ${sockets.join(", ")}`);
    if ((await watcher.page.evaluate(() => location.hash)) !== `#/match/${moved}`) throw new Error("the watcher left the match");
    console.log(`ok: a page watching match ${moved} followed it from node-c to node-d (${sockets.join(" -> ")})`);
  }
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
  for (const br of browsers) await br.close().catch(() => {});
  for (const p of processes) p.kill("SIGKILL");
  for (const stop of stops) stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
