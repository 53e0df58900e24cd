// Quick pairing and a rematch in Chromium (docs/pairing.md): two fresh browsers press the same
// pairing button, are paired by the next wave and land in one match, each at its own seat; one
// resigns, the other offers a rematch from the match page, the first accepts, and both land in
// the new match with the seats swapped. Two more browsers sign up and are paired in a rated
// pool. axe-core checks the pairing grid, the seeking state and the rematch offer.
// Registered with ctest as "web: pairing".
// Usage: node pairing.mjs <duelhall binary> <built client dir>
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { checkAxe } from "./axe.mjs";
import { openParticipant, routeMatchId } from "./players.mjs";
import { startServer } from "./server.mjs";

const [binary, webRoot] = process.argv.slice(2);
if (!binary || !webRoot) {
  console.error("usage: node pairing.mjs <duelhall binary> <built client dir>");
  process.exit(2);
}
if (!existsSync(process.env.DUELHALL_CHROMIUM ?? "/usr/bin/chromium")) {
  console.error("Debian's chromium is missing: apt-get install -y chromium");
  process.exit(77);
}

const BUTTON = "#pair-jedi_duel-rapid";

async function seat(page, id) {
  return page.evaluate((mid) => window.duelhall.matches.get(BigInt(mid))?.seat ?? -2, String(id));
}

async function register(p, name) {
  await p.page.click("#account-link");
  await p.page.fill("#signup-name", name);
  await p.page.fill("#signup-password", "correct horse");
  await p.page.click("#signup-form button[type=submit]");
  await p.page.waitForSelector("#sign-out", { timeout: 10_000 });
  await p.page.goto(`${p.url}#/`);
}

// Waits until the page shows a match other than `previous`; its id.
async function landedIn(page, previous = 0n) {
  await page.waitForFunction((prev) => {
    const m = /#\/match\/(\d+)/.exec(location.hash);
    return m && m[1] !== prev;
  }, String(previous), { timeout: 10_000 });
  return routeMatchId(page);
}

const server = await startServer(resolve(binary), resolve(webRoot));
const opened = [];
let failed = false;
try {
  const ann = await openParticipant("Ann", server.url);
  const ben = await openParticipant("Ben", server.url);
  opened.push(ann, ben);

  // The grid comes first; a guest's rated toggle is greyed.
  await ann.page.waitForSelector(BUTTON);
  if (!(await ann.page.$eval("#pair-rated", (e) => e.disabled))) throw new Error("a guest may toggle rated");
  await checkAxe(ann.page, "the lobby's pairing grid");
  await ann.page.click(BUTTON);
  await ann.page.waitForSelector("#seek-cancel");
  const seeking = await ann.page.innerText("#seeking");
  if (!/casual Jedi Duel opponent, rapid clock/.test(seeking)) throw new Error(`seeking reads "${seeking}"`);
  await checkAxe(ann.page, "the seeking state");

  // Cancel and seek again: the grid comes back, and the seek is taken again.
  await ann.page.click("#seek-cancel");
  await ann.page.waitForSelector(BUTTON);
  await ann.page.click(BUTTON);
  await ann.page.waitForSelector("#seek-cancel");

  const pressed = Date.now();
  await ben.page.click(BUTTON);
  const [annMatch, benMatch] = await Promise.all([landedIn(ann.page), landedIn(ben.page)]);
  const took = Date.now() - pressed;
  if (annMatch !== benMatch) throw new Error(`paired into two matches: ${annMatch} and ${benMatch}`);
  const seats = [await seat(ann.page, annMatch), await seat(ben.page, benMatch)].sort();
  if (seats.join() !== "0,1") throw new Error(`the paired seats are ${seats}`);
  console.log(`  ok: two browsers paired into match ${annMatch} (seats 0 and 1), ${took} ms after the second press`);

  // A rematch: Ann resigns, Ben offers, Ann accepts; both land in a new match, seats swapped.
  const annSeat = await seat(ann.page, annMatch);
  await ann.page.click("#resign", { timeout: 15_000 });
  await ann.page.click("#resign-yes");
  await ben.page.click("#rematch", { timeout: 10_000 });
  await ben.page.waitForSelector("#rematch-waiting");
  await ann.page.waitForSelector("#rematch-accept", { timeout: 10_000 });
  await checkAxe(ann.page, "a rematch offer at the end of a match");
  await ann.page.click("#rematch-accept");
  const [annNext, benNext] = await Promise.all([landedIn(ann.page, annMatch), landedIn(ben.page, benMatch)]);
  if (annNext !== benNext) throw new Error(`the rematch made two matches: ${annNext} and ${benNext}`);
  if ((await seat(ann.page, annNext)) !== 1 - annSeat) throw new Error("the rematch did not swap the seats");
  console.log(`  ok: the rematch seated both in match ${annNext}, seats swapped`);

  // Two accounts in a rated pool.
  const cat = await openParticipant("Cat", server.url);
  const dan = await openParticipant("Dan", server.url);
  opened.push(cat, dan);
  for (const [p, name] of [[cat, "cat_acc"], [dan, "dan_acc"]]) {
    await register(p, name);
    await p.page.waitForSelector(BUTTON);
    await p.page.check("#pair-rated");
    await p.page.click(BUTTON);
  }
  const [catMatch, danMatch] = await Promise.all([landedIn(cat.page), landedIn(dan.page)]);
  if (catMatch !== danMatch) throw new Error(`rated seekers paired into ${catMatch} and ${danMatch}`);
  const rated = await cat.page.evaluate((mid) => window.duelhall.matches.get(BigInt(mid))?.info?.settings?.rated, String(catMatch));
  if (!rated) throw new Error("the rated pool made an unrated match");
  console.log(`  ok: two accounts paired into rated match ${catMatch}`);
} catch (e) {
  failed = true;
  console.error(`FAIL: ${e.stack ?? e}`);
  console.error(server.log().slice(-3000));
} finally {
  for (const p of opened) await p.close().catch(() => {});
  await server.stop();
}
process.exit(failed ? 1 : 0);
