// A new player's first hour, page by page: two tabs of one browser, links that lead nowhere,
// resigning in every ruleset, invites across reloads, the phone's action bar, and Force Battles'
// suggested setup. Each function throws with what it saw when the page does not do its part.
import { createMatch, openParticipant, routeMatchId, screenshot } from "./players.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Two tabs of one browser profile for `seconds`: at most a few WebSockets opened in all, and
// exactly one of the two pages holds a live one; the other offers "use here" and no action.
export async function twoTabs(server, seconds = 20) {
  const p = await openParticipant("Tabby", server.url);
  try {
    let sockets = 0;
    const count = (page) => page.on("websocket", () => ++sockets);
    count(p.page);
    const second = await p.context.newPage();
    count(second);
    await second.goto(server.url);
    await sleep(seconds * 1000);
    const live = await Promise.all([p.page, second].map((pg) => pg.evaluate(() => window.duelhall.conn.live)));
    if (live.filter(Boolean).length !== 1) throw new Error(`live connections per tab: ${live.join(", ")}`);
    if (sockets > 3) throw new Error(`${sockets} WebSockets opened in ${seconds} s`);
    const quiet = live[0] ? second : p.page;
    const active = live[0] ? p.page : second;
    await quiet.waitForSelector("#use-here");
    if (await quiet.$("button.action:not([disabled])")) throw new Error("the quiet tab offers moves");
    // "Use here" moves the connection: the other tab goes quiet.
    await quiet.click("#use-here");
    await quiet.waitForFunction(() => window.duelhall.conn.live, null, { timeout: 10_000 });
    await active.waitForSelector("#use-here", { timeout: 10_000 });
    await sleep(1500);
    const after = await Promise.all([p.page, second].map((pg) => pg.evaluate(() => window.duelhall.conn.live)));
    if (after.filter(Boolean).length !== 1) throw new Error(`after "use here": ${after.join(", ")}`);
    return { sockets: sockets, seconds };
  } finally {
    await p.close();
  }
}

// Unknown ids, and a join link to a match that has started.
export async function deadEnds(server, host, guest, late, outDir) {
  const url = server.url;
  for (const hash of ["#/match/987654", "#/watch/987654", "#/join/987654/abc"]) {
    await late.page.goto(`${url}${hash}`);
    await late.page.waitForSelector('#dead-end[data-kind="unknown"]', { timeout: 10_000 }).catch(async () => {
      throw new Error(`${hash} shows: ${await late.page.innerText("main")}`);
    });
  }
  const favicon = await late.page.request.get(`${url}favicon.ico`);
  if (favicon.status() !== 200) throw new Error(`/favicon.ico answers ${favicon.status()}`);
  await late.page.click("#dead-end-lobby");
  await late.page.waitForSelector("#create-form");
  if (await late.page.$("#flash, #dead-end")) throw new Error("the lobby still shows the not-found note");
  // A private match: its invite link lasts across a reload, and once the match has started the
  // same link offers to watch.
  const id = await createMatch(host, "jedi_duel", { unlisted: true });
  const link = await host.page.inputValue("#invite");
  await host.page.reload();
  await host.page.waitForSelector("#invite");
  if ((await host.page.inputValue("#invite")) !== link) throw new Error("the invite link changed on reload");
  await guest.page.goto(link);
  await guest.page.waitForFunction((mid) => location.hash === `#/match/${mid}`, String(id));
  await late.page.goto(link);
  await late.page.waitForSelector('#dead-end[data-kind="started"]', { timeout: 10_000 }).catch(async () => {
    throw new Error(`a started match's join link shows: ${await late.page.innerText("main")}`);
  });
  await screenshot(late.page, outDir, "dead-end-started.png");
  await late.page.click("#dead-end-watch");
  await late.page.waitForSelector("#spectator-badge");
  // A public match's waiting page has a link to share too, with a copy button.
  await late.page.goto(url);
  await late.page.waitForSelector("#create-form");
  const open = await createMatch(late, "jedi_duel", {});
  const shared = await late.page.inputValue("#invite");
  if (!shared.endsWith(`#/join/${open}`)) throw new Error(`a public match's link is ${shared}`);
  await late.page.reload();
  await late.page.waitForSelector("#copy-invite");
  await late.page.click("#leave");
  await late.page.waitForSelector("#create-form");
  return id;
}

// Resigning in `ruleset`: a hosts, b joins, c watches; b resigns after a confirmation and all
// three see the end. Screenshots of the board at desktop and phone size on the way.
export async function resignIn(ruleset, [a, b, c], outDir) {
  await a.page.goto(a.url);
  await a.page.waitForSelector("#create-form");
  const id = await createMatch(a, ruleset, {});
  await c.page.goto(`${c.url}#/watch/${id}`);
  await c.page.waitForSelector("#spectator-badge");
  await b.page.goto(b.url);
  await b.page.click(`li[data-match="${id}"] button.join`);
  for (const p of [a, b, c]) await p.page.waitForSelector(".board:not(.waiting)", { timeout: 15_000 });
  await screenshot(a.page, outDir, `${ruleset}-board.png`);
  await a.page.setViewportSize({ width: 390, height: 844 });
  await screenshot(a.page, outDir, `${ruleset}-board-phone.png`);
  await a.page.setViewportSize({ width: 1100, height: 900 });
  // The rules are one click away, and the way back leads to the same match.
  await b.page.click(".match-head .rules-link");
  await b.page.waitForSelector(`#rules[data-ruleset="${ruleset}"]`);
  await screenshot(b.page, outDir, `${ruleset}-how-to-play.png`);
  await b.page.goBack();
  await b.page.waitForSelector("#resign");
  await b.page.click("#resign");
  await b.page.click("#resign-no");
  await b.page.click("#resign");
  await b.page.click("#resign-yes");
  const outcome = {};
  for (const [who, p] of [["a", a], ["b", b], ["c", c]]) {
    await p.page.waitForSelector("#outcome", { timeout: 15_000 });
    outcome[who] = await p.page.innerText("#outcome");
  }
  if (!/resigns/.test(outcome.c) || !/you win/.test(outcome.a) || !/you lose/.test(outcome.b)) {
    throw new Error(`outcomes: ${JSON.stringify(outcome)}`);
  }
  if (await b.page.$("#resign")) throw new Error("resign is still offered after the end");
  return id;
}

// The phone: the action bar is on screen without scrolling, and the header is compact.
export async function phoneBar(server, outDir) {
  const p = await openParticipant("Pocket", server.url, { width: 390, height: 844 });
  try {
    await createMatch(p, "jedi_duel", { vsComputer: true, botDelay: 0 });
    await p.page.waitForSelector("#actions .action", { timeout: 15_000 });
    const box = await p.page.evaluate(() => {
      window.scrollTo(0, 0);
      const bar = document.getElementById("action-bar").getBoundingClientRect();
      const first = document.querySelector("#actions .action").getBoundingClientRect();
      const head = document.querySelector(".match-head").getBoundingClientRect();
      return { top: bar.top, bottom: bar.bottom, button: first.bottom, header: head.bottom, height: innerHeight };
    });
    if (box.top < 0 || box.top >= box.height || box.button > box.height) {
      throw new Error(`the action bar is off screen: ${JSON.stringify(box)}`);
    }
    await screenshot(p.page, outDir, "jedi_duel-phone-actions.png");
    // Your move shows in the tab's title and icon too.
    const title = await p.page.title();
    if (!/Your move/.test(title)) throw new Error(`the title reads "${title}" on the player's move`);
    const icon = await p.page.getAttribute("#favicon", "href");
    if (!icon?.startsWith("data:image/svg+xml")) throw new Error(`the favicon is ${icon}`);
    return box;
  } finally {
    await p.close();
  }
}

// Force Battles against the computer: the suggested setup goes through with one click (the
// limit is five) and the opponent's hidden steps fold into one line.
export async function forceBattlesSetup(server, outDir) {
  const p = await openParticipant("Setter", server.url);
  try {
    let clicks = 0;
    await createMatch(p, "force_battles", { vsComputer: true, botDelay: 0 });
    await p.page.waitForSelector("#fb-setup-go", { timeout: 15_000 });
    await screenshot(p.page, outDir, "force_battles-setup.png");
    await p.page.click("#fb-setup-go");
    ++clicks;
    await p.page.waitForFunction(() => document.getElementById("event-log")?.textContent?.includes("both setups are revealed"),
      null, { timeout: 30_000 }).catch(async () => {
      throw new Error(`the setup did not finish: ${await p.page.innerText("#action-bar")}`);
    });
    if (clicks > 5) throw new Error(`${clicks} clicks`);
    const lines = await p.page.$$eval("#event-log li", (els) => els.map((e) => e.textContent));
    if (lines.some((l) => /made a setup choice/.test(l))) throw new Error("hidden setup steps are listed one by one");
    if (lines.filter((l) => /is setting up/.test(l)).length > 1) throw new Error(`setup lines: ${lines.join(" | ")}`);
    const id = await routeMatchId(p.page);
    return { clicks, id };
  } finally {
    await p.close();
  }
}
