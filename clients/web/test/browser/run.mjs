// Browser tests of the web client against the real server (registered with ctest by
// tests/web/CMakeLists.txt). Usage: node run.mjs <duelhall binary> <built client dir>
//  1. two players create and join a Jedi Duel match and play it to the end through the UI,
//     one reloading mid-match and one dropping its connection, both continuing where they were;
//  2. a third participant spectates: neither its DOM nor any frame it receives shows a card in
//     a player's hand;
//  3. one match of every other ruleset the server lists, against the computer, by keyboard;
//  4. screenshots of each ruleset's match screen (and a phone-width one) in test-output/;
//  5. after the duel, every page checks the revealed seed against the commitment, and the duel
//     replays step by step from the public view, a seat, and everything (the result hidden
//     until the last step), and axe-core finds nothing serious on the replay page;
//  6. accounts: registration, a rated match, sign-in from a fresh profile, history, leaderboard;
//  7. a new player's first hour (journeys.mjs): two tabs of one browser, dead-end links, resigning
//     in every ruleset, invites across reloads, the phone's action bar, Force Battles' setup;
//  8. the expert bot level, offered by the create form, plays a Young Jedi match to its end.
// Usage: node run.mjs <duelhall binary> <built client dir> [screenshot dir]
import { existsSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import { accountsScenario } from "./accounts.mjs";
import { checkAxe } from "./axe.mjs";
import { checkSpectatorFrames, checkSpectatorDom, playDuel } from "./duel.mjs";
import { loadDecoders } from "./frames.mjs";
import { deadEnds, forceBattlesSetup, phoneBar, resignIn, twoTabs } from "./journeys.mjs";
import { actByKeyboard, chooser, createMatch, lowestContrast, matchState, openParticipant, screenshot } from "./players.mjs";
import { startServer } from "./server.mjs";

const [binary, webRoot, shotDir] = process.argv.slice(2);
if (!binary || !webRoot) {
  console.error("usage: node run.mjs <duelhall binary> <built client dir>");
  process.exit(2);
}
for (const [what, path, fix, code] of [
  ["the built client", resolve(webRoot, "index.html"), "run scripts/build-web.sh", 1],
  ["Debian's chromium", process.env.DUELHALL_CHROMIUM ?? "/usr/bin/chromium", "apt-get install -y chromium", 77],
]) {
  if (!existsSync(path)) {
    console.error(`${what} is missing (${path}): ${fix}`);
    process.exit(code); // 77: ctest reports the browser tests as skipped
  }
}
// Screenshots go to the build tree when ctest says where (tests/web/CMakeLists.txt), else to
// clients/web/test-output (ignored by git).
const outDir = shotDir ? resolve(shotDir) : resolve(fileURLToPath(import.meta.url), "../../../test-output");
mkdirSync(outDir, { recursive: true });
console.log(`screenshots are saved in ${outDir}`);

// WCAG AA asks 4.5:1 for body text; the theme aims at 7:1 (AAA).
const MIN_CONTRAST = 7;
async function checkContrast(page, what) {
  const worst = await lowestContrast(page);
  console.log(`     lowest text contrast on the ${what} screen: ${worst.ratio.toFixed(1)}:1 ("${worst.text}")`);
  if (worst.ratio < MIN_CONTRAST) throw new Error(`text contrast ${worst.ratio.toFixed(2)}:1 at "${worst.text}"`);
}

let failures = 0;
async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (e) {
    ++failures;
    console.log(`FAIL ${name}: ${e.stack ?? e}`);
  }
}

const server = await startServer(resolve(binary), resolve(webRoot));
const decoders = await loadDecoders();
const opened = [];
// Closes every participant opened so far but those kept: a finished scenario's browsers would
// otherwise run their pages (clocks, sockets, renderers) to the end of the run, on a machine the
// other tests share.
async function release(...keep) {
  const closing = opened.filter((p) => !keep.includes(p));
  opened.splice(0, opened.length, ...keep.filter((p) => opened.includes(p)));
  await Promise.all(closing.map((p) => p.close().catch(() => {})));
}
try {
  const probe = await openParticipant("Probe", server.url);
  opened.push(probe);
  const rulesets = await (async () => {
    await probe.page.waitForFunction(() => window.duelhall.rulesets.length > 0);
    return probe.page.evaluate(() => window.duelhall.rulesets.map((r) => ({ name: r.name, view: r.viewMessage })));
  })();
  console.log(`server rulesets: ${rulesets.map((r) => r.name).join(", ")}`);

  const jedi = rulesets.find((r) => r.name === "jedi_duel");
  let duel = null; // the played duel, for the replay check
  await check("Jedi Duel: two players, a spectator, a reload and a drop, played to the end", async () => {
    if (!jedi) throw new Error("the server does not list jedi_duel");
    const alice = await openParticipant("Alice", server.url);
    const bob = await openParticipant("Bob", server.url);
    const carol = await openParticipant("Carol", server.url);
    opened.push(alice, bob, carol);
    const result = await playDuel({ alice, bob, carol, outDir, pick: chooser(20261121) });
    duel = { id: result.id, actions: result.actions, alice, bob, carol };
    const streams = checkSpectatorFrames(decoders, jedi.view, result);
    console.log(`     ${result.actions} actions, ${result.domChecks} spectator DOM checks, ` +
      `${streams.spectatorViews} spectator views and ${streams.events} events checked`);
  });

  await check("the duel's seed is verified on every page, and the duel replays from every perspective", async () => {
    if (!duel) throw new Error("no Jedi Duel was played");
    for (const p of [duel.alice, duel.bob, duel.carol]) {
      await p.page.waitForSelector("#fairness.verified", { timeout: 15_000 });
    }
    const page = probe.page;
    await page.click("#replays-link");
    await page.fill("#replay-player", "BOB");
    await page.click("#replay-filter button[type=submit]");
    await page.click(`li[data-replay="${duel.id}"] a`);
    const position = async () => page.innerText("#replay-position");
    await page.waitForSelector("#replay-position", { timeout: 10_000 }).catch(async () => {
      throw new Error(`the replay did not open: ${await page.innerText("main")}`);
    });
    if ((await position()) !== `0 / ${duel.actions}`) {
      throw new Error(`the replay opens at "${await position()}", not at 0 of ${duel.actions} actions`);
    }
    await page.waitForSelector("#fairness.verified");
    for (let i = 0; i < 3; ++i) {
      const before = await position();
      await page.click("#replay-forward");
      await page.waitForFunction((b) => document.getElementById("replay-position")?.textContent !== b, before);
    }
    await page.click("#replay-back");
    await page.waitForFunction(() => document.getElementById("replay-position")?.textContent?.startsWith("2 /"));
    if (await page.$(".hand")) throw new Error("the public replay view shows a hand");
    if (/won by|no winner|resign/.test(await page.innerText("#replay-result"))) {
      throw new Error("the replay shows the result before its last step");
    }
    const publicCards = await page.$$eval("[data-card]", (els) => els.length);
    const events = await page.$$eval("#replay-events li", (els) => els.length);
    if (!events) throw new Error("no events shown for the replay's second action");
    // Alice's perspective at the same position: her hand, as she saw it then.
    await page.selectOption("#replay-perspective", "0");
    await page.waitForSelector(".hand [data-card]");
    if (!(await position()).startsWith("2 /")) throw new Error(`the perspective change moved to ${await position()}`);
    await screenshot(page, outDir, "replay.png");
    // Everything: both players' hands are in the view.
    await page.selectOption("#replay-perspective", "-2");
    await page.waitForFunction((n) => !document.querySelector(".hand") &&
      document.querySelectorAll("[data-card]").length > n, publicCards);
    // Keyboard: the arrow keys step too.
    await page.focus("#replay-forward");
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => document.getElementById("replay-position")?.textContent?.startsWith("3 /"));
    await page.click("#replay-last");
    await page.waitForFunction((n) => document.getElementById("replay-position")?.textContent === `${n} / ${n}`,
      duel.actions);
    const result = await page.innerText("#replay-result");
    if (!/won by|no winner/.test(result)) throw new Error(`the replay's result reads "${result}"`);
    await checkContrast(page, "replay");
    await checkAxe(page, "a replay at its last step");
    await page.goto(`${server.url}#/`);
    await page.waitForSelector("#create-form");
  });

  await release(probe);
  await check("accounts: two players register, play a rated match, and the history and leaderboard show it",
    () => accountsScenario({ server, opened, outDir }));

  await release(probe);
  await check("a private match is not listed and is joined through its invite link", async () => {
    const host = await openParticipant("Hostess", server.url);
    const guest = await openParticipant("Guest", server.url);
    opened.push(host, guest);
    // A lobby update redraws the page while the host fills the form: the ticked box stays ticked,
    // and a click whose press and release straddle the update still lands (ui/press_guard.ts).
    if (!(await host.page.$eval("#table-options", (d) => d.open))) await host.page.click("#table-options summary");
    await host.page.check("#unlisted");
    await host.page.hover("#spectator_chat");
    await host.page.mouse.down();
    await guest.page.fill("#lobby-chat-input", "anyone for a private duel?");
    await guest.page.click("#lobby-chat-form button[type=submit]");
    await host.page.waitForTimeout(600); // the line arrives while the box is pressed
    await host.page.mouse.up();
    await host.page.waitForSelector("#lobby-chat-log li:has-text('anyone for a private duel?')");
    if (await host.page.isChecked("#spectator_chat")) throw new Error("a redraw during a click ate the click");
    if (!(await host.page.isChecked("#unlisted"))) throw new Error("a lobby update unticked Private");
    await host.page.check("#spectator_chat");
    const id = await createMatch(host, "jedi_duel", { unlisted: true, delayActions: 2 });
    const link = await host.page.inputValue("#invite");
    if (!link.includes(`#/join/${id}/`)) throw new Error(`unexpected invite link ${link}`);
    if (await guest.page.$(`li[data-match="${id}"]`)) throw new Error("the private match is listed");
    await guest.page.goto(link);
    await guest.page.waitForFunction((mid) => location.hash === `#/match/${mid}`, String(id));
    for (const p of [host, guest]) await p.page.waitForSelector("#actions .action, .board:not(.waiting)");
    // A spectator with the invite code sees the match with the badge giving its delay.
    await probe.page.goto(link.replace("#/join/", "#/watch/"));
    const badge = await probe.page.waitForSelector("#spectator-badge");
    const text = await badge.innerText();
    if (!text.includes("2 actions behind")) throw new Error(`spectator badge says "${text}"`);
    await probe.page.click("text=Back to the lobby");
    await probe.page.waitForSelector("#create-form");
    await screenshot(probe.page, outDir, "lobby.png");
    await checkContrast(probe.page, "lobby");
  });

  await release(probe);
  for (const r of rulesets.filter((x) => x.name !== "jedi_duel")) {
    await check(`${r.name}: a match against the computer by keyboard alone`, async () => {
      const p = await openParticipant(`Kbd ${r.name}`.slice(0, 32), server.url);
      opened.push(p);
      const id = await createMatch(p, r.name, { vsComputer: true, botDelay: 0 });
      await p.page.waitForSelector(".board:not(.waiting)");
      let shot = false;
      let duelShot = false;
      const pick = chooser(7);
      let st = null;
      let acted = 0;
      for (let i = 0; i < 5000; ++i) {
        st = await matchState(p.page, id);
        if (st?.over) break;
        if (i === 6 && !shot) {
          await screenshot(p.page, outDir, `${r.name}.png`);
          shot = true;
        }
        if (!duelShot && (await p.page.$(".duel-side"))) {
          await screenshot(p.page, outDir, `${r.name}-duel.png`);
          duelShot = true;
        }
        if (await actByKeyboard(p.page, pick)) ++acted;
        else await p.page.waitForTimeout(30);
      }
      if (!st?.over) {
        // Say where the match stood, so that a match that never ends can be told apart from a
        // page that does not show its end.
        const notice = await p.page.$eval(".notice", (e) => e.textContent).catch(() => "none");
        const events = await p.page.$$eval("#events li", (els) => els.slice(-6).map((e) => e.textContent));
        throw new Error(`not over after ${acted} actions: seq ${st?.seq}, ${st?.legal} legal, ` +
          `notice: ${notice}; last events: ${events.join(" | ")}`);
      }
      await p.page.waitForSelector("#outcome", { timeout: 30_000 });
      if (!shot) await screenshot(p.page, outDir, `${r.name}.png`);
      await screenshot(p.page, outDir, `${r.name}-end.png`);
      await p.page.setViewportSize({ width: 390, height: 844 });
      await screenshot(p.page, outDir, `${r.name}-phone.png`);
      const width = await p.page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) throw new Error(`the page scrolls sideways at phone width (${width}px)`);
      await checkContrast(p.page, r.name);
    });
    await release(probe);
  }

  await release(probe);
  if (rulesets.some((r) => r.name === "young_jedi")) {
    await check("young_jedi: two players reach a duel; each sees the other's dueling hand as a count", async () => {
      const a = await openParticipant("Qui-Gon", server.url);
      const b = await openParticipant("Maul", server.url);
      opened.push(a, b);
      const id = await createMatch(a, "young_jedi", {});
      await b.page.click(`li[data-match="${id}"] button.join`);
      await a.page.waitForSelector(".board:not(.waiting)");
      const pick = chooser(11);
      for (let i = 0; i < 600; ++i) {
        for (const p of [a, b]) {
          const line = await p.page.$(".player:not(.own) .duel-side p:first-of-type");
          const count = line ? await line.innerText() : "";
          if (/^Dueling hand: [1-9]/.test(count)) {
            const foreignChips = await p.page.$$eval(".player:not(.own) .duel-side p:first-of-type .chip", (els) => els.length);
            if (foreignChips) throw new Error(`${p.name} sees the opponent's dueling hand`);
            const own = await p.page.$$eval(".player.own .duel-side p:first-of-type .chip", (els) => els.length);
            if (!own) throw new Error(`${p.name} does not see its own dueling hand`);
            await screenshot(p.page, outDir, "young_jedi-duel.png");
            return;
          }
          await actByKeyboard(p.page, pick);
        }
        if ((await matchState(a.page, id))?.over) throw new Error("the match ended before a duel with cards in hand");
      }
      throw new Error("no duel within 600 rounds of choices");
    });
  }

  await release(probe);
  // The first hour: the tabs' 20 s run beside the rest.
  const tabs = check("two tabs of one browser for 20 s: few WebSockets, exactly one live, \"use here\" moves it", async () => {
    const r = await twoTabs(server, 20);
    console.log(`     ${r.sockets} WebSocket(s) opened by two tabs in ${r.seconds} s`);
  });
  await check("dead ends: unknown match ids, a started match's join link offers to watch, invites last a reload", async () => {
    const [host, guest, late] = await Promise.all(["Hope", "Gale", "Late"].map((n) => openParticipant(n, server.url)));
    opened.push(host, guest, late);
    await deadEnds(server, host, guest, late, outDir);
  });
  await release(probe);
  const trio = await Promise.all(["Rey", "Kylo", "Finn"].map((n) => openParticipant(n, server.url)));
  opened.push(...trio);
  for (const r of rulesets) {
    await check(`${r.name}: resigning (after a confirmation) ends the match for both players and the spectator`, async () => {
      await resignIn(r.name, trio, outDir);
    });
  }
  await release(probe);
  await Promise.all([
    check("phone 390x844: the action bar is on screen without scrolling", async () => {
      const box = await phoneBar(server, outDir);
      console.log(`     action bar from ${Math.round(box.top)} px to ${Math.round(box.bottom)} px, header ends at ${Math.round(box.header)} px`);
    }),
    check("force_battles: the suggested setup is accepted in at most 5 clicks, hidden steps fold", async () => {
      const r = await forceBattlesSetup(server, outDir);
      console.log(`     setup accepted in ${r.clicks} click(s)`);
    }),
  ]);
  await tabs;

  await check("Jedi Duel at phone width against the computer, by keyboard, with a decision clock", async () => {
    // Meanwhile someone in the lobby is filling in the create form: live updates keep it.
    await probe.page.goto(`${server.url}#/`);
    await probe.page.click("#table-options summary");
    await probe.page.fill("#clock", "42");
    const p = await openParticipant("Phone", server.url, { width: 390, height: 844 });
    opened.push(p);
    const id = await createMatch(p, "jedi_duel", { vsComputer: true, botDelay: 0, clock: 300 });
    await probe.page.waitForSelector(`li[data-match="${id}"]`);
    if ((await probe.page.inputValue("#clock")) !== "42") throw new Error("a lobby update wiped the create form");
    await p.page.waitForSelector(".board:not(.waiting)");
    for (let i = 0; i < 4; ++i) await actByKeyboard(p.page);
    await p.page.waitForFunction(() => /^\d+ s$/.test(document.getElementById("clock")?.textContent ?? ""));
    await p.page.waitForFunction(() => document.querySelectorAll("#actions .action").length > 0);
    await screenshot(p.page, outDir, "jedi_duel-phone.png");
    await checkContrast(p.page, "jedi_duel");
    const width = await p.page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) throw new Error(`the page scrolls sideways at phone width (${width}px)`);
    const st = await matchState(p.page, id);
    if (!st || st.seq < 1) throw new Error("no action went through by keyboard");
  });

  await check("Young Jedi against the expert bot: the level is offered and the bot plays to the end", async () => {
    const p = await openParticipant("Padawan", server.url);
    opened.push(p);
    await p.page.selectOption("#ruleset", "young_jedi");
    const levels = await p.page.$$eval("#bot_level option", (els) => els.map((e) => e.value));
    if (!levels.includes("expert")) throw new Error(`bot levels offered: ${levels.join(", ")}`);
    const id = await createMatch(p, "young_jedi", { vsComputer: true, botDelay: 0, botLevel: "expert" });
    await p.page.waitForSelector(".board:not(.waiting)");
    const pick = chooser(11);
    let st = null;
    let acted = 0;
    for (let i = 0; i < 5000; ++i) {
      st = await matchState(p.page, id);
      if (st?.over) break;
      // Any offered action but conceding, so that the bot has a whole match to answer.
      const offered = await p.page.$$eval("#actions button.action",
        (els) => els.map((e) => [e.getAttribute("data-code"), e.textContent ?? ""]));
      const choices = offered.filter(([, label]) => !/^concede/i.test(label));
      if (!choices.length) {
        await p.page.waitForTimeout(30);
        continue;
      }
      const [code] = choices[pick(choices.length)];
      await p.page.click(`#actions button.action[data-code="${code}"]`, { timeout: 2_000 })
        .then(() => ++acted, () => {}); // redrawn in between: look again
    }
    if (!st?.over) throw new Error(`not over after ${acted} actions: seq ${st?.seq}`);
    await p.page.waitForSelector("#outcome", { timeout: 30_000 });
    // Every step is one action, the player's or the bot's: the bot answered between them.
    if (st.seq <= acted) throw new Error(`the bot never moved: seq ${st.seq} after ${acted} actions`);
    console.log(`     ${acted} actions of the player, ${st.seq - acted} steps of the expert bot`);
  });
} finally {
  for (const p of opened) await p.close().catch(() => {});
  await decoders.close();
  await server.stop();
}
console.log(failures ? `${failures} browser test(s) failed` : "all browser tests passed");
process.exit(failures ? 1 : 0);
