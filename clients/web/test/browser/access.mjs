// Every player (WCAG 2.2 AA) and what a new player tripped on, in Chromium against the real
// server (registered with ctest as "web: accessibility"):
//  - axe-core over the lobby, each ruleset's match mid-game, the account, leaderboard, replays
//    and rules pages (the moderators' page is checked in moderation.mjs), failing on any serious
//    or critical violation (axe.mjs);
//  - a keyboard-only journey: a match against the computer created and ten moves made with Tab,
//    Enter and Space alone, focus kept in the move panel after each move, the skip link;
//  - one live region, never rebuilt, saying "your move"; playable cards marked by more than
//    colour; no sideways scroll at 320 px; one h1, a title of its own and a meta description;
//  - the frictions: profile and leaderboard refresh after a rated match, leaving a rated match
//    says it loses and asks first, a shared end is not "you win", Force Battles' setup is not
//    paced by the bot delay and says whose turn it is, the planet choice explained, the name
//    rules shown up front, the account name once in the top bar, pages for an unknown replay
//    and an unknown player.
// Usage: node access.mjs <duelhall binary> <built client dir>
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { checkAxe } from "./axe.mjs";
import { actByKeyboard, chooser, createMatch, matchState, openParticipant, routeMatchId } from "./players.mjs";
import { startServer } from "./server.mjs";

const [binary, webRoot] = process.argv.slice(2);
if (!binary || !webRoot) {
  console.error("usage: node access.mjs <duelhall binary> <built client dir>");
  process.exit(2);
}
if (!existsSync(process.env.DUELHALL_CHROMIUM ?? "/usr/bin/chromium")) {
  console.error("Debian's chromium is missing: apt-get install -y chromium");
  process.exit(77);
}

let failures = 0;
const only = process.env.DUELHALL_ONLY ? new RegExp(process.env.DUELHALL_ONLY) : null; // while developing
async function check(name, body) {
  if (only && !only.test(name)) return;
  const started = Date.now();
  try {
    await body();
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (e) {
    ++failures;
    console.log(`FAIL ${name}: ${e.stack ?? e}`);
  }
}

// Everything a screen reader treats as a live region.
const LIVE = "[aria-live], [role=status], [role=alert], [role=log], [role=marquee]";
const focusInPanel = (page) => page.evaluate(() => Boolean(document.activeElement?.closest("#action-bar")));
const focusedText = (page) => page.evaluate(() => document.activeElement?.textContent ?? "");

async function noSidewaysScroll(page, what, width = 320) {
  const before = page.viewportSize();
  await page.setViewportSize({ width, height: 720 });
  const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
  await page.setViewportSize(before);
  if (scroll > width) throw new Error(`${what} scrolls sideways at ${width} px (${scroll} px wide)`);
}

// One h1, a title naming the page, the page's meta description.
async function pageBasics(page, what) {
  const facts = await page.evaluate(() => ({
    h1: document.querySelectorAll("h1").length,
    title: document.title,
    description: document.querySelector('meta[name="description"]')?.getAttribute("content") ?? "",
  }));
  if (facts.h1 !== 1) throw new Error(`${what} has ${facts.h1} h1 headings`);
  if (!facts.description) throw new Error("no meta description");
  return facts.title;
}

// Waits for the page's own match to move past `seq`.
async function movedPast(page, id, seq) {
  await page.waitForFunction(([mid, s]) => Number(window.duelhall.matches.get(BigInt(mid))?.seq ?? 0) > s,
    [String(id), seq], { timeout: 15_000 });
}

// Waits until the page offers a move or the match has ended; true when a move is offered. On a
// timeout the error says what the page held (its match, link, panel and last events), so a CI
// failure can be read without the run at hand.
async function moveOffered(page, id, timeout = 15_000) {
  try {
    await page.waitForFunction((mid) => Boolean(window.duelhall.matches.get(BigInt(mid))?.outcome)
      || Boolean(document.querySelector("#actions .action:not([disabled]), #fb-setup-go")), String(id), { timeout });
  } catch (e) {
    const held = await page.evaluate((mid) => {
      const m = window.duelhall.matches.get(BigInt(mid));
      return {
        link: window.duelhall.link,
        match: m ? { seq: Number(m.seq), seen: Number(m.seen), legal: m.legal.map((a) => a.label),
          status: m.info?.status, over: Boolean(m.outcome), notice: m.notice, events: m.events.slice(-4) } : null,
        panel: document.getElementById("action-bar")?.textContent?.slice(0, 200) ?? null,
        route: location.hash,
      };
    }, String(id));
    throw new Error(`${e.message}\n     the page held: ${JSON.stringify(held)}`);
  }
  return !(await matchState(page, id))?.over;
}

// Keyboard alone: Tab (Shift+Tab never) to an offered move that does not concede, then Enter or
// Space. Returns the Tab presses it took.
async function keyboardMove(page, id, key) {
  if (!(await moveOffered(page, id))) throw new Error("the match ended before the move");
  const seq = (await matchState(page, id)).seq;
  let tabs = 0;
  for (;;) {
    const ok = await page.evaluate(() => {
      const el = document.activeElement;
      return Boolean(el && (el.matches("#actions .action") || el.id === "fb-setup-go") && !/^concede/i.test(el.textContent ?? ""));
    });
    if (ok) break;
    if (++tabs > 60) throw new Error(`no move reached in 60 Tab presses (focus on "${await focusedText(page)}")`);
    await page.keyboard.press("Tab");
  }
  await page.keyboard.press(key);
  await movedPast(page, id, seq);
  return tabs;
}

const server = await startServer(resolve(binary), resolve(webRoot));
const opened = [];
const open = async (name, viewport) => {
  const p = await openParticipant(name, server.url, viewport);
  opened.push(p);
  return p;
};
try {
  const probe = await open("Probe");
  await probe.page.waitForFunction(() => window.duelhall.rulesets.length > 0);
  const rulesets = await probe.page.evaluate(() => window.duelhall.rulesets.map((r) => ({ name: r.name, display: r.displayName })));

  const keyboard = check("keyboard only: a match against the computer and ten moves with Tab, Enter and Space", async () => {
    const p = await open("Keys");
    await p.page.evaluate(() => document.activeElement?.blur());
    let presses = 0;
    while (!(await p.page.evaluate(() => document.activeElement?.id === "vs-computer"))) {
      if (++presses > 80) throw new Error("the computer button is not reached by Tab");
      await p.page.keyboard.press("Tab");
    }
    await p.page.keyboard.press("Enter");
    const id = await routeMatchId(p.page);
    await p.page.waitForSelector(".board:not(.waiting)", { timeout: 15_000 });
    const tabs = [];
    for (let i = 0; i < 10; ++i) {
      if ((await matchState(p.page, id))?.over) throw new Error(`the match ended after ${i} moves`);
      if (i === 4) {
        // The skip link: the first Tab from the top of the page, and it leads to the moves.
        await p.page.waitForSelector("#skip-to-move", { state: "attached", timeout: 15_000 });
        // The skip link is the page's first Tab stop: Tab on round the page until it is reached.
        const first = await p.page.evaluate(() =>
          document.querySelector("a[href], button:not([disabled]), input, select, textarea, summary, [tabindex='0']")?.id);
        if (first !== "skip-to-move") throw new Error(`the page's first Tab stop is "${first}", not the skip link`);
        let round = 0;
        while (!(await p.page.evaluate(() => document.activeElement?.id === "skip-to-move"))) {
          if (++round > 120) throw new Error("Tab never reaches the skip link");
          await p.page.keyboard.press("Tab");
        }
        await p.page.keyboard.press("Enter");
        if (!(await focusInPanel(p.page))) throw new Error("the skip link did not lead to the move panel");
      }
      tabs.push(await keyboardMove(p.page, id, i % 2 ? " " : "Enter"));
      // Focus stays in the move panel, not on the page body.
      await p.page.waitForTimeout(50);
      if (!(await focusInPanel(p.page))) {
        throw new Error(`after move ${i + 1} focus is on "${await p.page.evaluate(() => document.activeElement?.tagName)}"`);
      }
    }
    const worst = Math.max(...tabs.slice(1));
    console.log(`     Tab presses before each move: ${tabs.join(" ")}`);
    if (worst > 3) throw new Error(`a move took ${worst} Tab presses: focus left the move panel`);
    const region = await p.page.$$eval(LIVE, (els) => els.map((e) => e.id));
    if (region.join() !== "announcer") throw new Error(`live regions on the match page: ${region.join(", ")}`);
  });

  for (const r of rulesets) {
    await check(`${r.name}: mid-game by keyboard, focus kept, axe, one live region kept, 320 px`, async () => {
      const p = await open(`Mid ${r.name}`.slice(0, 32));
      const id = await createMatch(p, r.name, { vsComputer: true, botDelay: 0 });
      await p.page.waitForSelector(".board:not(.waiting)", { timeout: 15_000 });
      // Everything the region says, as it says it: a bot's events may replace "Your move" before
      // the next look at the page, so the test listens rather than samples.
      await p.page.evaluate(() => {
        const announcer = document.getElementById("announcer");
        announcer.dataset.kept = "1";
        window.heard = [announcer.textContent];
        new MutationObserver(() => window.heard.push(announcer.textContent))
          .observe(announcer, { childList: true, characterData: true, subtree: true });
      });
      const pick = chooser(3);
      for (let i = 0; i < 6 && !(await matchState(p.page, id))?.over; ++i) {
        if (!(await moveOffered(p.page, id))) break; // the match ended meanwhile
        if (await p.page.$("#fb-setup-go")) await keyboardMove(p.page, id, "Enter");
        else if (!(await actByKeyboard(p.page, pick))) continue;
        await p.page.waitForTimeout(80);
        const st = await matchState(p.page, id);
        if (!st.over && !(await focusInPanel(p.page))) throw new Error(`focus left the move panel after move ${i + 1}`);
      }
      if (await p.page.evaluate(() => document.getElementById("announcer")?.dataset.kept !== "1")) {
        throw new Error("the live region was rebuilt");
      }
      const heard = (await p.page.evaluate(() => window.heard)).join(" ");
      if (!/Your move/.test(heard) && !(await matchState(p.page, id)).over) throw new Error(`the live region said: ${heard}`);
      if (r.name === "jedi_duel" && (await p.page.$(".hand-card.playable"))) {
        const mark = await p.page.$eval(".hand-card.playable", (e) => [e.textContent, e.querySelector("svg")?.getAttribute("aria-label")]);
        if (!/playable/.test(mark[0]) || !/playable/.test(mark[1])) throw new Error(`a playable card reads ${mark.join(" / ")}`);
      }
      // The scrolled event log shows its top line whole.
      const cut = await p.page.evaluate(() => {
        const log = document.getElementById("event-log");
        if (!log || log.scrollHeight <= log.clientHeight) return null;
        const top = log.getBoundingClientRect().top + log.clientTop;
        const li = [...log.children].find((e) => {
          const r = e.getBoundingClientRect();
          return r.top < top - 1 && r.bottom > top + 1;
        });
        return li ? li.textContent : "";
      });
      if (cut) throw new Error(`the event log's top line is cut: "${cut}"`);
      await checkAxe(p.page, `the ${r.name} match mid-game`);
      const title = await pageBasics(p.page, `the ${r.name} match`);
      if (!title.includes(r.display)) throw new Error(`the match page's title is "${title}"`);
      await noSidewaysScroll(p.page, `the ${r.name} match`);
      if (r.name === "jedi_duel") {
        // A refused move is said once through the one live region, not by an alert of its own
        // redrawn (and read again) with every update.
        const live = await p.page.$$eval(LIVE, (els) => els.map((e) => e.id));
        if (live.join() !== "announcer") throw new Error(`live regions on the match page: ${live.join(", ")}`);
        await p.page.evaluate((mid) => window.duelhall.act(BigInt(mid), 987654321n), String(id));
        const notice = (await (await p.page.waitForSelector(".notice[data-say]", { timeout: 10_000 })).innerText()).trim();
        for (let i = 0; i < 3; ++i) {
          await p.page.evaluate(() => window.duelhall.changed());
          await p.page.waitForTimeout(50);
        }
        const times = (await p.page.evaluate(() => window.heard)).filter((t) => t.includes(notice)).length;
        if (times !== 1) throw new Error(`the refusal "${notice}" was said ${times} times`);
        // Jedi Duel's shared end (both seats among the winners) is told as shared, not as a win
        // (the outcome set here as the server sends it for that end).
        await p.page.evaluate((mid) => {
          const m = window.duelhall.matches.get(BigInt(mid));
          m.outcome = { winners: [0, 1], reason: "the fatigue tracks ran out together" };
          window.duelhall.changed();
        }, String(id));
        const text = await p.page.innerText("#outcome");
        if (/you win/.test(text) || !/Shared/.test(text)) throw new Error(`a shared end reads "${text}"`);
      }
    });
  }

  await check("force_battles: the bot's setup is not paced by its 400 ms delay; the page says whose turn it is", async () => {
    const p = await open("Pacer");
    await createMatch(p, "force_battles", { vsComputer: true, botDelay: 400 });
    await p.page.waitForSelector("#fb-setup-go", { timeout: 15_000 });
    const note = await p.page.innerText("#setup-note");
    if (!/your turn/.test(note)) throw new Error(`the setup note reads "${note}"`);
    // With nothing to choose, the note says who the match waits for (the page's own state, as
    // after its last step while the opponent is still setting up).
    const waiting = await p.page.evaluate(() => {
      const m = [...window.duelhall.matches.values()][0];
      const legal = m.legal;
      m.legal = [];
      window.duelhall.changed();
      const text = document.getElementById("setup-note")?.textContent ?? "";
      m.legal = legal;
      window.duelhall.changed();
      return text;
    });
    if (!/Waiting for \S+/.test(waiting) || /choose below/.test(waiting)) throw new Error(`with nothing to choose the note reads "${waiting}"`);
    const started = Date.now();
    await p.page.click("#fb-setup-go");
    await p.page.waitForFunction(() => document.getElementById("event-log")?.textContent?.includes("both setups are revealed"),
      null, { timeout: 20_000 });
    const seconds = (Date.now() - started) / 1000;
    console.log(`     setup through ${seconds.toFixed(1)} s after "Use this setup" (27 bot steps at 400 ms were 10.8 s)`);
    if (seconds > 5) throw new Error(`the setup took ${seconds.toFixed(1)} s`);
  });

  await check("young_jedi: the opening planet choice is explained where it is made", async () => {
    const p = await open("Planet");
    await createMatch(p, "young_jedi", { vsComputer: true, botDelay: 5000 });
    const help = await p.page.waitForSelector("#planet-help", { timeout: 15_000 });
    if (!/Tatooine, Naboo or Coruscant/.test(await help.innerText())) throw new Error("the planet help says nothing useful");
  });

  await check("pages: axe over the lobby, account, leaderboard, replays and rules; titles, h1, 320 px; the smaller frictions", async () => {
    const page = probe.page;
    const titles = new Map();
    const visit = async (hash, selector, what) => {
      await page.evaluate((h) => (location.hash = h), hash);
      await page.waitForSelector(selector, { timeout: 10_000 });
      await checkAxe(page, what);
      titles.set(await pageBasics(page, what), what);
      await noSidewaysScroll(page, what);
    };
    await visit("#/", "#create-form", "the lobby");
    await visit("#/account", "#signup-form", "the sign-in page");
    // The name rules are shown before any refusal.
    const rules = await page.innerText("#signup-name-help");
    if (!/3 to 20 characters/.test(rules)) throw new Error(`the name help reads "${rules}"`);
    await visit(`#/leaderboard/${rulesets[0].name}`, "#board-ruleset", "the leaderboard");
    await visit("#/replays", "#replay-filter", "the replays");
    await visit(`#/rules/${rulesets[0].name}`, "#rules", "how to play");
    await visit("#/replay/987654", "#unknown-replay", "an unknown replay");
    await visit("#/player/nobody_here", "#unknown-player", "an unknown player");
    if (titles.size !== 7) throw new Error(`titles are not each page's own: ${[...titles.keys()].join(" | ")}`);
  });

  await check("accounts: a rated match refreshes the profile and an open leaderboard; leaving it says it loses and asks first", async () => {
    const [ann, ben, carol] = await Promise.all(["Ann", "Ben", "Carol"].map((n) => open(n)));
    for (const [p, name] of [[ann, "ann_a11y"], [ben, "ben_a11y"]]) {
      await p.page.click("#account-link");
      await p.page.fill("#signup-name", name);
      await p.page.fill("#signup-password", "a long password");
      await p.page.click("#signup-form button[type=submit]");
      await p.page.waitForSelector("#sign-out", { timeout: 10_000 });
    }
    // The account name shows once in the top bar, as the account link.
    const bar = await ann.page.innerText(".topbar");
    if (bar.split("ann_a11y").length !== 2) throw new Error(`the top bar reads "${bar}"`);
    await ann.page.waitForSelector("#profile");
    if (!/No rated games yet/.test(await ann.page.innerText("#profile"))) throw new Error("a new account has ratings");
    await checkAxe(ann.page, "the account page");
    const ruleset = "jedi_duel";
    await carol.page.goto(`${server.url}#/leaderboard/${ruleset}`);
    await carol.page.waitForSelector("#board-h");
    await ann.page.goto(`${server.url}#/`);
    await ann.page.waitForSelector("#create-form");
    await ann.page.selectOption("#ruleset", ruleset);
    await ann.page.click("#table-options summary");
    await ann.page.check("#rated");
    await ann.page.click("#create");
    const id = await routeMatchId(ann.page);
    await ben.page.goto(`${server.url}#/`);
    await ben.page.click(`li[data-match="${id}"] button.join`);
    await ben.page.waitForSelector(".board:not(.waiting)", { timeout: 15_000 });
    const label = await ben.page.innerText("#leave");
    if (!/lose/.test(label) || /bot takes over/.test(label)) throw new Error(`leaving a rated match reads "${label}"`);
    await ben.page.click("#leave");
    await ben.page.click("#leave-no");
    if ((await matchState(ben.page, id))?.over) throw new Error("leaving ended the match before its confirmation");
    await ben.page.click("#leave");
    await ben.page.click("#leave-yes");
    await ann.page.waitForSelector("#outcome", { timeout: 15_000 });
    // Ann's profile, seen before the match, shows the rating when she opens it again.
    await ann.page.click("#account-link");
    await ann.page.waitForSelector(`#ratings li[data-ruleset="${ruleset}"]`, { timeout: 10_000 }).catch(async () => {
      throw new Error(`the profile after a rated match: ${await ann.page.innerText("#profile")}`);
    });
    // Carol's leaderboard, open all along, lists both players without a reload.
    await carol.page.waitForFunction(() => document.querySelectorAll("#leaderboard li").length === 2, null, { timeout: 10_000 })
      .catch(async () => { throw new Error(`the open leaderboard reads: ${await carol.page.innerText("main")}`); });
  });

  await keyboard;
} finally {
  for (const p of opened) await p.close().catch(() => {});
  await server.stop();
}
console.log(failures ? `${failures} accessibility test(s) failed` : "all accessibility tests passed");
process.exit(failures ? 1 : 0);
