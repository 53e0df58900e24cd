// The deck builder in Chromium (docs/accounts.md, "Saved decks"): a new account builds a legal
// Light Side deck from the card browser by filtering and clicking Add (each click checked by the
// server's own Y1 check; a card that breaks a rule other than the size is taken out again), saves
// it, reloads the page and finds it saved, then plays a match against the computer with it picked
// at the create form, to the end (never conceding), and finds its list in the replay; then saves a
// Force Battles setup from a match's setup form and starts another match with it picked at the
// create form, the seat left only to confirm it. Registered with ctest as "web: decks".
// Usage: node decks.mjs <duelhall binary> <built client dir>
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { chooser, matchState, openParticipant, routeMatchId } from "./players.mjs";
import { startServer } from "./server.mjs";

const [binary, webRoot] = process.argv.slice(2);
if (!binary || !webRoot) {
  console.error("usage: node decks.mjs <duelhall binary> <built client dir>");
  process.exit(2);
}
if (!existsSync(process.env.DUELHALL_CHROMIUM ?? "/usr/bin/chromium")) {
  console.error("Debian's chromium is missing: apt-get install -y chromium");
  process.exit(77);
}
const MAX_CLICKS = 400;
const MAX_ACTIONS = 4000;

// Clicks one offered action other than conceding, so the match runs to a real end.
async function playOnce(page, pick) {
  const codes = await page.$$eval("#actions button.action", (els) =>
    els.filter((e) => !/^concede/i.test(e.textContent ?? "")).map((e) => e.getAttribute("data-code")));
  if (!codes.length) return false;
  // A short timeout: when the offer changed under the click, the next round picks again at once
  // (Playwright's default would wait 30 s for a button that is gone for good).
  await page.click(`#actions button.action[data-code="${codes[pick(codes.length)]}"]`, { timeout: 1000 });
  return true;
}

async function waitFor(what, test, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await test();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

// The server's verdict on the list the editor shows: the problems, once the check answered.
async function verdict(page) {
  return page.evaluate(() => {
    const legality = document.getElementById("deck-legality")?.textContent ?? "";
    if (/Checking/.test(legality)) return null;
    return { legal: /^Legal/.test(legality),
      problems: [...document.querySelectorAll("#deck-problems li")].map((li) => li.textContent ?? "") };
  });
}

async function cardsInDeck(page) {
  return Number(/\((\d+)\)/.exec(await page.innerText("#deck-cards-h"))[1]);
}

const server = await startServer(resolve(binary), resolve(webRoot));
let p;
let failed = false;
try {
  p = await openParticipant("Deckbuilder", server.url);
  const page = p.page;
  await page.click("#account-link");
  await page.fill("#signup-name", "builder");
  await page.fill("#signup-password", "correct horse");
  await page.click("#signup-form button[type=submit]");
  await page.waitForSelector("#sign-out", { timeout: 10_000 });

  await page.click("#decks-link");
  await page.click("#new-deck");
  await page.waitForSelector("#deck-editor");
  await page.fill("#deck-name", "Light by clicks");
  await page.selectOption("#filter-side", "Light");
  // Characters first (sorted by power), then weapons and battle cards: the kinds a deck mixes.
  const passes = [["Character", "power"], ["Weapon", "id"], ["Battle", "destiny"]];
  let clicks = 0;
  let legal = false;
  for (const [type, sort] of passes) {
    if (legal) break;
    await page.selectOption("#filter-type", type);
    await page.selectOption("#filter-sort", sort);
    const ids = await page.$$eval("#card-table tbody tr", (rows) => rows.map((r) => r.getAttribute("data-card")));
    for (const id of ids) {
      if (legal || clicks >= MAX_CLICKS) break;
      for (let copy = 0; copy < 3 && !legal; ++copy) {
        const before = await cardsInDeck(page);
        await page.click(`#add-${id}`);
        ++clicks;
        await waitFor("the deck to grow", async () => (await cardsInDeck(page)) === before + 1);
        const seen = await waitFor("the server's check", async () => {
          const v = await verdict(page);
          const size = Number(await page.$eval("#deck-size", (el) => el.textContent).catch(() => "-1"));
          return v && (v.legal || v.problems.length) && size >= 0 ? v : null;
        });
        const other = seen.problems.filter((t) => !/holds at least 40/.test(t));
        if (other.length) {
          // A rule other than the size is broken by this copy: take it out, try the next card.
          await page.click(`#deck-cards li[data-card="${id}"] button[aria-label^="One fewer"]`);
          await waitFor("the copy to go", async () => (await cardsInDeck(page)) === before);
          break;
        }
        legal = seen.legal;
      }
    }
  }
  if (!legal) {
    throw new Error(`no legal Light deck after ${clicks} clicks: ${await cardsInDeck(page)} cards, ` +
      `${JSON.stringify(await verdict(page))}`);
  }
  const size = await cardsInDeck(page);
  console.log(`built a legal Light deck of ${size} cards in ${clicks} clicks`);
  await page.click("#save-deck");
  await page.waitForFunction(() => /Saved/.test(document.getElementById("deck-notice")?.textContent ?? ""));

  // After a reload the deck is still the account's.
  await page.reload();
  await page.waitForSelector("#link-state");
  await page.click("#decks-link");
  await page.waitForSelector("#deck-list li");
  const listed = await page.innerText("#deck-list");
  if (!/Light by clicks/.test(listed) || !new RegExp(`${size} cards`).test(listed)) {
    throw new Error(`the saved deck is not listed after a reload: ${listed}`);
  }

  // A match against the computer with the saved deck picked.
  await page.goto(`${server.url}#/`);
  await page.waitForSelector("#create-form");
  // The pairing grid offers it too (Seek.saved_deck).
  await page.waitForSelector("#pair-saved-young_jedi option[value^='s:']", { state: "attached", timeout: 10_000 });
  await page.selectOption("#ruleset", "young_jedi");
  await page.waitForSelector("#saved_deck option[value^='s:']", { state: "attached" });
  const value = await page.$eval("#saved_deck option[value^='s:']", (o) => o.value);
  await page.selectOption("#saved_deck", value);
  await page.click("#table-options summary");
  await page.fill("#bot_delay", "0");
  await page.click("#vs-computer");
  const id = await routeMatchId(page);
  const pick = chooser(34);
  let acted = 0;
  for (; acted < MAX_ACTIONS; ++acted) {
    const state = await matchState(page, id);
    if (state?.over) break;
    if (!(await playOnce(page, pick).catch(() => false))) await new Promise((r) => setTimeout(r, 20));
  }
  const end = await matchState(page, id);
  if (!end?.over) throw new Error(`the match did not end within ${MAX_ACTIONS} steps`);
  console.log(`played match ${id} with the saved deck to its end (${acted} steps)`);

  // The replay shows the deck the player sat down with (public now that the match has ended).
  let shown = "";
  for (let tries = 0; tries < 5 && !shown; ++tries) {
    await page.goto(`${server.url}#/replays`);
    await page.goto(`${server.url}#/replay/${id}`);
    shown = await page.waitForSelector('#replay-setups [data-setup="0"] pre', { state: "attached", timeout: 3_000 })
      .then((el) => el.textContent()).catch(() => "");
  }
  const lines = shown.split("\n").filter((l) => l.trim() !== "");
  if (lines.length < 5) throw new Error(`the replay shows seat 0's deck as: ${shown}`);
  console.log(`the replay shows the saved deck (${lines.length} lines)`);

  // A Force Battles setup: saved from a match's setup form, then picked at the create form of
  // another match, where the seat starts with it made and only confirms (CreateMatch.saved_deck).
  await page.goto(`${server.url}#/`);
  await page.waitForSelector("#create-form");
  await page.selectOption("#ruleset", "force_battles");
  await page.click("#vs-computer");
  const first = await routeMatchId(page);
  await page.waitForSelector("#fb-save-name");
  await page.fill("#fb-save-name", "Apprentice");
  await page.click("#fb-save");
  await page.waitForFunction(() => /Saved as Apprentice/.test(document.getElementById("fb-saves-said")?.textContent ?? ""));
  await page.click("#leave");
  await page.click("#leave-yes");
  await page.waitForSelector("#create-form");
  await page.selectOption("#ruleset", "force_battles");
  await page.waitForSelector("#saved_deck option[value^='s:']", { state: "attached", timeout: 10_000 });
  const setupLabel = await page.$eval("#saved_deck option[value^='s:']", (o) => o.textContent);
  if (setupLabel !== "Apprentice") throw new Error(`the create form offers the setup as ${setupLabel}`);
  await page.selectOption("#saved_deck", await page.$eval("#saved_deck option[value^='s:']", (o) => o.value));
  await page.click("#vs-computer");
  const second = await routeMatchId(page);
  if (second === first) throw new Error("no new match was made with the saved setup");
  const offered = await waitFor("the seat's first decision", async () => {
    const labels = await page.$$eval("#actions button.action", (els) => els.map((e) => e.textContent ?? ""));
    return labels.length ? labels : null;
  });
  if (offered.length !== 1 || !/confirm/i.test(offered[0])) {
    throw new Error(`the saved setup was not made at the seat: offered ${JSON.stringify(offered)}`);
  }
  console.log(`match ${second} starts with the saved Force Battles setup made, only "${offered[0]}" left`);
  console.log("decks: OK");
} catch (e) {
  failed = true;
  console.error(`decks: FAILED: ${e.stack ?? e}`);
} finally {
  await p?.close();
  await server.stop();
}
process.exit(failed ? 1 : 0);
