// A challenge in Chromium, two browser contexts (docs/pairing.md, "Challenges"): Ann, signed in,
// challenges Ben from his player page; Ben's page, in the background, shows the challenge as a
// notification with a badge and the count in the tab title; Ben accepts and both pages land in
// the same match, Ann in seat 0 and Ben in seat 1. axe-core checks the page with the
// notification. Before, Ann finds Ben in the lobby's online list, whose Challenge button opens
// the form. Then Cid watches it from the lobby: the lobby's row (seen by Dee) and the match
// page (Ann's) count one spectator, and none again once Cid leaves; GET /api/tv/<ruleset> names
// the match. Registered with ctest as "web: challenge".
// Usage: node challenge.mjs <duelhall binary> <built client dir>
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { checkAxe } from "./axe.mjs";
import { openParticipant, routeMatchId } from "./players.mjs";
import { startServer } from "./server.mjs";

const [binary, webRoot] = process.argv.slice(2);
if (!binary || !webRoot) {
  console.error("usage: node challenge.mjs <duelhall binary> <built client dir>");
  process.exit(2);
}
if (!existsSync(process.env.DUELHALL_CHROMIUM ?? "/usr/bin/chromium")) {
  console.error("Debian's chromium is missing: apt-get install -y chromium");
  process.exit(77);
}

async function register(p, name) {
  await p.page.click("#account-link");
  await p.page.fill("#signup-name", name);
  await p.page.fill("#signup-password", "correct horse");
  await p.page.click("#signup-form button[type=submit]");
  await p.page.waitForSelector("#sign-out", { timeout: 10_000 });
  await p.page.goto(`${p.url}#/`);
}

// The page believes it is in the background (document.hidden), or in front again.
async function setHidden(page, hidden) {
  await page.evaluate((h) => {
    Object.defineProperty(document, "hidden", { configurable: true, get: () => h });
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => (h ? "hidden" : "visible") });
    document.dispatchEvent(new Event("visibilitychange"));
  }, hidden);
}

const server = await startServer(resolve(binary), resolve(webRoot));
const opened = [];
let failed = false;
try {
  const ann = await openParticipant("Ann", server.url);
  const ben = await openParticipant("Ben", server.url);
  opened.push(ann, ben);
  await register(ann, "ann_acc");
  await register(ben, "ben_acc");
  await setHidden(ben.page, true);

  // The lobby's online list names Ben, online, with a button that opens the challenge form.
  await ann.page.click("#list-online");
  await ann.page.waitForSelector('#online li[data-online="ben_acc"] .presence-online', { timeout: 10_000 });
  await ann.page.click('#online li[data-online="ben_acc"] .online-challenge');
  await ann.page.waitForSelector("#online #challenge-ben_acc .send-challenge", { timeout: 10_000 });
  console.log("ok   the lobby's online list names a signed-in player with a challenge button");

  await ann.page.goto(`${ann.url}#/player/ben_acc`);
  await ann.page.click("#challenge-ben_acc .send-challenge", { timeout: 10_000 });
  await ann.page.waitForSelector("#challenge-ben_acc button:has-text('Withdraw')", { timeout: 10_000 });

  await ben.page.waitForSelector("#notifications .accept-challenge", { timeout: 10_000 });
  const told = await ben.page.innerText("#notifications");
  if (!/Ann|ann_acc/.test(told) || !/challenges you/.test(told)) throw new Error(`the notification reads: ${told}`);
  await ben.page.waitForFunction(() => /^\(1\) /.test(document.title), null, { timeout: 5_000 })
    .catch(async () => { throw new Error(`the background tab's title reads: ${await ben.page.title()}`); });
  if ((await ben.page.innerText("#notice-badge")) !== "1") throw new Error("no badge for the notification");
  await setHidden(ben.page, false);
  await ben.page.waitForFunction(() => !/^\(\d+\) /.test(document.title), null, { timeout: 5_000 });
  await checkAxe(ben.page, "a page with a challenge notification");

  await ben.page.click("#notifications .accept-challenge");
  const benMatch = await routeMatchId(ben.page);
  const annMatch = await routeMatchId(ann.page);
  if (benMatch !== annMatch) throw new Error(`Ann is in match ${annMatch}, Ben in ${benMatch}`);
  for (const [p, seat] of [[ann, 0], [ben, 1]]) {
    await p.page.waitForFunction(([id, s]) => {
      const m = window.duelhall.matches.get(BigInt(id));
      return m && m.seat === s && m.view !== null;
    }, [String(benMatch), seat], { timeout: 10_000 }).catch(async () => {
      throw new Error(`${p.name} is not seated in ${benMatch} with a view: ${await p.page.innerText("body")}`);
    });
  }
  console.log("ok   a challenge sent from a player page is notified in the background tab (badge, title), accepted, and both land in the match");

  // Spectator counts: the lobby's row and the match page follow Cid's coming and going.
  const cid = await openParticipant("Cid", server.url);
  const dee = await openParticipant("Dee", server.url);
  opened.push(cid, dee);
  const row = `.match-row[data-match="${benMatch}"]`;
  const countIs = async (p, selector, n) => p.page.waitForFunction(([sel, text]) =>
    document.querySelector(sel)?.textContent === text, [selector, `${n} watching`], { timeout: 10_000 })
    .catch(async () => {
      throw new Error(`${p.name} sees "${await p.page.locator(selector).first().innerText().catch(() => "nothing")}" at ${selector}, not ${n} watching`);
    });
  await countIs(dee, `${row} .match-spectators`, 0);
  await countIs(ann, "#spectator-count", 0);
  await cid.page.click(`${row} .spectate`, { timeout: 10_000 });
  await cid.page.waitForFunction((id) => location.hash.startsWith(`#/watch/${id}`) || location.hash.startsWith(`#/match/${id}`), String(benMatch));
  await countIs(ann, "#spectator-count", 1);
  await countIs(dee, `${row} .match-spectators`, 1);
  await cid.close();
  opened.splice(opened.indexOf(cid), 1);
  await countIs(ann, "#spectator-count", 0);
  await countIs(dee, `${row} .match-spectators`, 0);
  console.log("ok   the lobby's row and the match page count a spectator who comes and goes");

  // The TV over HTTP names the only match in play, with its players.
  const tv = await ann.page.evaluate(async (id) => {
    const ruleset = window.duelhall.matches.get(BigInt(id)).info.ruleset;
    const r = await fetch(`/api/tv/${ruleset}`);
    return { status: r.status, type: r.headers.get("content-type"), body: await r.json() };
  }, String(benMatch));
  if (tv.status !== 200 || tv.type !== "application/json" || String(tv.body.match_id) !== String(benMatch) ||
      tv.body.players?.length !== 2 || tv.body.rated !== false) {
    throw new Error(`GET /api/tv answered ${JSON.stringify(tv)}`);
  }
  const unknown = await ann.page.evaluate(async () => (await fetch("/api/tv/no_such_game")).status);
  if (unknown !== 404) throw new Error(`GET /api/tv/no_such_game answered ${unknown}`);
  console.log("ok   GET /api/tv/<ruleset> names the match in play as JSON (two players, casual), 404 for an unknown ruleset");
} catch (e) {
  failed = true;
  console.log(`FAIL challenge: ${e.stack ?? e}`);
  console.log(server.log().slice(-3000));
} finally {
  for (const p of opened) await p.close().catch(() => {});
  await server.stop();
}
process.exit(failed ? 1 : 0);
