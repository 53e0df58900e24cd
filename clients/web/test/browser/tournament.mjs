// A tournament in Chromium, four browser contexts (docs/tournaments.md): Ann, signed in, creates a
// Swiss of two rounds starting a few seconds later from the tournaments page; Ann, Ben, Cid and
// Dee join from its page; at the start each page is notified and taken to its game's match; the
// player in seat 1 of each game resigns; the second round is paired at once and played the same
// way (one page in the background, which counts the game in its tab title); every page then shows
// the tournament finished, with the final standings (the one with two wins first, with 2 points)
// and round 2's games with links to their replays. The server also answers the standings as JSON.
// Then, in a second tournament still registering, a player withdraws from its page and Ann, made
// a moderator, disqualifies another from it; a Young Jedi player joins one with a saved Light deck
// and the ready Dark deck. axe-core checks the list and the tournament pages.
// Registered with ctest as "web: tournament".
// Usage: node tournament.mjs <duelhall binary> <built client dir>
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { checkAxe } from "./axe.mjs";
import { openParticipant, routeMatchId } from "./players.mjs";
import { startServer } from "./server.mjs";

const [binary, webRoot] = process.argv.slice(2);
if (!binary || !webRoot) {
  console.error("usage: node tournament.mjs <duelhall binary> <built client dir>");
  process.exit(2);
}
if (!existsSync(process.env.DUELHALL_CHROMIUM ?? "/usr/bin/chromium")) {
  console.error("Debian's chromium is missing: apt-get install -y chromium");
  process.exit(77);
}

// The engine's first Light ready deck (engine/young_jedi/ready_decks.cpp), as a saved deck's list.
function lightReadyDeck() {
  const source = readFileSync(fileURLToPath(new URL("../../../../engine/young_jedi/ready_decks.cpp", import.meta.url)), "utf8");
  return /R"\(([\s\S]*?)\)"/.exec(source)[1];
}

// The page believes it is in the background (document.hidden), or in front again.
async function setHidden(page, hidden) {
  await page.evaluate((h) => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => h });
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (h ? "hidden" : "visible") });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

async function register(p, name) {
  await p.page.click("#account-link");
  await p.page.fill("#signup-name", name);
  await p.page.fill("#signup-password", "correct horse");
  await p.page.click("#signup-form button[type=submit]");
  // Four sign-ups at once hash four passwords beside four Chromium starts: on a loaded machine
  // (the test command builds the sanitizer trees beside it) that took over 30 s once.
  await p.page.waitForSelector("#sign-out", { timeout: 90_000 });
}

// Each page lands on its game's match; the one in seat 1 resigns. Returns the match ids.
// `beforeResign`: run once every page is in its match, before the resignations end the round.
async function playRound(players, round, before, beforeResign = async () => {}) {
  const matches = new Set();
  for (const p of players) {
    await p.page.waitForFunction((old) => {
      const m = /#\/match\/(\d+)/.exec(location.hash);
      return m && !old.includes(m[1]);
    }, before.map(String), { timeout: 20_000 }).catch(async () => {
      throw new Error(`${p.name} was not taken to a round ${round} match: at ${await p.page.evaluate(() => location.hash)}`);
    });
    const id = await routeMatchId(p.page);
    matches.add(id);
    p.match = id;
  }
  if (matches.size !== 2) throw new Error(`round ${round}: ${matches.size} matches for four players`);
  await beforeResign();
  for (const p of players) {
    const seat = await p.page.evaluate((id) => window.duelhall.matches.get(BigInt(id))?.seat, String(p.match));
    if (seat !== 1) continue;
    await p.page.click("#resign", { timeout: 10_000 });
    await p.page.click("#resign-yes", { timeout: 10_000 });
  }
  for (const p of players) {
    await p.page.waitForFunction((id) => Boolean(window.duelhall.matches.get(BigInt(id))?.outcome), String(p.match),
      { timeout: 10_000 });
  }
  return [...matches];
}

const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const server = await startServer(resolve(binary), resolve(webRoot), ["--tournament-creators", "anyone"]);
const opened = [];
let failed = false;
try {
  // The four browsers start and sign up side by side (a third of the run when one after another).
  const players = await Promise.all(["Ann", "Ben", "Cid", "Dee"].map(async (name) => {
    const p = await openParticipant(name, server.url);
    opened.push(p);
    await register(p, `${name.toLowerCase()}_acc`);
    return p;
  }));
  console.log(`     four browsers signed up (${seconds()} s)`);
  const [ann, , , dee] = players;
  await ann.page.goto(`${ann.url}#/tournaments`);
  await ann.page.waitForSelector("#tournament-create");
  await checkAxe(ann.page, "the tournaments page");
  await ann.page.fill("#t-name", "Spring Swiss");
  await ann.page.selectOption("#t-ruleset", "jedi_duel");
  await ann.page.fill("#t-rounds", "2");
  await ann.page.selectOption("#t-clock", "blitz");
  // Eight seconds from now, in the page's local time with seconds.
  await ann.page.evaluate(() => {
    const at = new Date(Date.now() + 8_000);
    const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
    document.getElementById("t-start").value = local;
  });
  await ann.page.click("#t-create");
  await ann.page.waitForFunction(() => /#\/tournament\/\d+/.test(location.hash), null, { timeout: 10_000 });
  const id = /#\/tournament\/(\d+)/.exec(await ann.page.evaluate(() => location.hash))[1];
  for (const p of players) {
    if (p !== ann) await p.page.goto(`${p.url}#/tournament/${id}`);
    await p.page.click("#t-join", { timeout: 10_000 });
    await p.page.waitForSelector("#t-registered", { timeout: 10_000 });
  }
  await ann.page.waitForFunction(() => document.querySelectorAll("#t-standings tbody tr").length === 4, null, { timeout: 10_000 });
  await checkAxe(ann.page, "a tournament page while registering");
  console.log(`ok   a Swiss is created from the tournaments page and four players join from its page (${seconds()} s)`);

  // Dee's page goes to the background before round 1 ends: round 2's start, pushed the moment
  // round 1's last game ends, counts in its tab's title until it is in front again.
  const first = await playRound(players, 1, [], () => setHidden(dee.page, true));
  for (const p of players) {
    const notice = await p.page.innerText("#notifications").catch(() => "");
    if (!notice.includes("Spring Swiss (round 1) has started")) throw new Error(`${p.name}'s notifications read: ${notice}`);
  }
  console.log(`ok   round 1 starts by itself, each page is notified and taken to its match, seat 1 resigns (${seconds()} s)`);
  const second = await playRound(players, 2, first);
  await dee.page.waitForFunction(() => /^\(1\) /.test(document.title), null, { timeout: 5_000 })
    .catch(async () => { throw new Error(`the background tab's title reads: ${await dee.page.title()}`); });
  await setHidden(dee.page, false);
  await dee.page.waitForFunction(() => !/^\(\d+\) /.test(document.title), null, { timeout: 5_000 });
  console.log(`ok   round 2 is paired when round 1 ends and played alike; a background tab counts its start in the title (matches ${first}, ${second}; ${seconds()} s)`);

  for (const p of players) {
    await p.page.goto(`${p.url}#/tournament/${id}`);
    await p.page.waitForSelector('#t-status[data-status="finished"]', { timeout: 15_000 }).catch(async () => {
      throw new Error(`${p.name}'s page reads ${await p.page.innerText("#main").catch(() => "nothing")}`);
    });
    const top = await p.page.innerText("#t-standings tbody tr:first-child .t-points");
    if (top !== "2") throw new Error(`${p.name}'s standings give the winner ${top} points`);
    const replays = await p.page.locator("#t-games .replay-link").count();
    if (replays !== 2) throw new Error(`${p.name}'s page links ${replays} replays of round 2's two games`);
  }
  await checkAxe(ann.page, "a finished tournament's page");
  const json = await ann.page.evaluate(async (tid) => (await fetch(`/api/tournaments/${tid}`)).json(), id);
  if (json.summary?.status !== "TOURNAMENT_FINISHED" || json.standings?.length !== 4 || json.standings[0].points !== 4) {
    throw new Error(`GET /api/tournaments/${id} answered ${JSON.stringify(json).slice(0, 400)}`);
  }
  console.log("ok   every page shows the tournament finished with its final standings; GET /api/tournaments/<id> agrees");

  // Ann, made a moderator on the command line, opens another Swiss; Ben joins and Cid joins and
  // withdraws from its page; Ann disqualifies Ben from the page with a reason.
  execFileSync(resolve(binary), ["admin", "grant", "ann_acc", "--role", "moderator", "--data", server.data]);
  await ann.page.reload();
  // The role comes with the new Hello: the moderators' link shows once the session is ready.
  await ann.page.waitForSelector("#moderation-link", { timeout: 10_000 });
  const other = await ann.page.evaluate(async () => {
    const reply = await Promise.race([window.duelhall.command({ case: "createTournament", value: { settings: {
      name: "Autumn Swiss", ruleset: "jedi_duel", rounds: 3, startMs: BigInt(Date.now() + 600_000) } } }),
    new Promise((_, fail) => setTimeout(() => fail(new Error("no answer to CreateTournament")), 10_000))]);
    return String(reply.body.value?.summary?.id ?? "");
  });
  if (!other) throw new Error("the second tournament was not created");
  for (const p of [players[1], players[2]]) {
    await p.page.goto(`${p.url}#/tournament/${other}`);
    await p.page.click("#t-join", { timeout: 10_000 });
    await p.page.waitForSelector("#t-withdraw", { timeout: 10_000 });
  }
  await players[2].page.click("#t-withdraw");
  await players[2].page.waitForSelector("#t-join", { timeout: 10_000 });
  await ann.page.goto(`${ann.url}#/tournament/${other}`);
  await ann.page.waitForSelector("#t-disqualify", { timeout: 10_000 });
  await checkAxe(ann.page, "a tournament page with the moderators' form");
  await ann.page.selectOption("#t-dq-entrant", "ben_acc");
  await ann.page.fill("#t-dq-reason", "no-show agreed in chat");
  await ann.page.click("#t-dq");
  await players[1].page.waitForSelector("#t-join", { timeout: 10_000 }).catch(async () => {
    throw new Error(`Ben's page after the disqualification reads ${await players[1].page.innerText("#main")}`);
  });
  console.log(`ok   a player withdraws from a tournament's page, and a moderator disqualifies one from it (${seconds()} s)`);

  // A Young Jedi tournament: Dee joins with a saved Light deck and the ready Dark deck (a side left
  // to its ready deck goes as an empty list beside the saved one; alone, the server refuses).
  const youngJedi = await ann.page.evaluate(async () => {
    const reply = await window.duelhall.command({ case: "createTournament", value: { settings: {
      name: "Padawan Cup", ruleset: "young_jedi", startMs: BigInt(Date.now() + 600_000) } } });
    return String(reply.body.value?.summary?.id ?? "");
  });
  const saved = await dee.page.evaluate(async (list) => {
    const reply = await window.duelhall.command({ case: "saveDeck", value: { name: "Masters", ruleset: "young_jedi", list } });
    return reply.result;
  }, lightReadyDeck());
  if (!youngJedi || saved !== 0) throw new Error(`the Young Jedi tournament (${youngJedi}) or the saved deck (${saved}) failed`);
  await dee.page.goto(`${dee.url}#/tournament/${youngJedi}`);
  await dee.page.reload(); // the saved decks load afresh
  await dee.page.waitForSelector("#t-deck-light option:has-text('Masters')", { state: "attached", timeout: 10_000 });
  await dee.page.selectOption("#t-deck-light", { label: "Masters" });
  await dee.page.click("#t-join");
  await dee.page.waitForSelector("#t-withdraw", { timeout: 10_000 }).catch(async () => {
    throw new Error(`Dee's Young Jedi join: ${await dee.page.innerText("#main")}`);
  });
  console.log(`ok   a Young Jedi player joins with a saved Light deck and the ready Dark deck (${seconds()} s)`);
  console.log(`     (${seconds()} s)`);
} catch (e) {
  failed = true;
  console.log(`FAIL tournament: ${e.stack ?? e}`);
  console.log(server.log().slice(-3000));
} finally {
  await Promise.all(opened.map((p) => p.close().catch(() => {})));
  await server.stop();
}
process.exit(failed ? 1 : 0);
