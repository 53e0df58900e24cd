// The moderators' page in Chromium, two browser contexts (docs/moderation.md): a moderator made
// on the command line (duelhall admin grant) mutes a player from the web page (the player's next
// chat line is refused with the mute's reason), kicks it (it is disconnected and comes back),
// bans it (it is thrown out and cannot return, even after a reload, and is shown the ban with its
// reason and end), and the audit log on the page shows the three actions. An address banned
// from the page sees the ban (GET /api/ban) instead of "reconnecting" for ever. axe-core checks
// the moderators' page. Registered with ctest as "web: moderation".
// Usage: node moderation.mjs <duelhall binary> <built client dir>
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { checkAxe } from "./axe.mjs";
import { openParticipant } from "./players.mjs";
import { startServer } from "./server.mjs";

const [binary, webRoot] = process.argv.slice(2);
if (!binary || !webRoot) {
  console.error("usage: node moderation.mjs <duelhall binary> <built client dir>");
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

async function lobbyChat(p, text) {
  await p.page.fill("#lobby-chat-input", text);
  await p.page.click("#lobby-chat-form button[type=submit]");
}

async function flashText(page) {
  const el = await page.waitForSelector("#flash", { timeout: 10_000 });
  return el.innerText();
}

// Clicks `button` in the moderators' row of `name` and waits for the page's notice.
async function moderate(mod, name, button, notice) {
  const row = `#mod-players li[data-name="${name}"]`;
  await mod.page.waitForSelector(row, { timeout: 10_000 });
  await mod.page.click(`${row} button.${button}`);
  await mod.page.waitForFunction((text) => document.getElementById("mod-notice")?.textContent === text, notice,
    { timeout: 10_000 });
}

// Loopback is a trusted proxy here, so a page can come from another address (X-Forwarded-For).
const FAR_ADDRESS = "203.0.113.9";
// A kick holds the account out for --kick-hold seconds (docs/moderation.md): 3 here.
const server = await startServer(resolve(binary), resolve(webRoot),
  ["--trusted-proxy", "127.0.0.1", "--kick-hold", "3"]);
const opened = [];
let failed = false;
try {
  const mod = await openParticipant("Mod", server.url);
  const troll = await openParticipant("Troll", server.url);
  opened.push(mod, troll);
  await register(mod, "mod_acc");
  await register(troll, "troll_acc");
  // The first moderator is made on the command line, on the server's data folder.
  execFileSync(resolve(binary), ["admin", "grant", "mod_acc", "--role", "moderator", "--data", server.data]);
  await mod.page.reload();
  await mod.page.click("#moderation-link", { timeout: 10_000 });

  // The troll chats; the moderator mutes it for ten minutes with a reason.
  await lobbyChat(troll, "buy cheap gold");
  await mod.page.fill("#mod-reason", "spam");
  await mod.page.selectOption("#mod-duration", "600");
  await moderate(mod, "troll_acc", "mute", "troll_acc muted");
  // The mute's own notice and the refused chat line give its end in one format.
  const told = await troll.page.waitForFunction(() => {
    const text = document.getElementById("flash")?.textContent ?? "";
    return /muted/.test(text) && text;
  }, null, { timeout: 10_000 }).then((v) => v.jsonValue());
  await troll.page.click("#flash button").catch(() => {});
  await lobbyChat(troll, "buy more gold");
  const muted = await flashText(troll.page);
  if (!/muted until .*: spam/.test(muted)) throw new Error(`the muted chat shows "${muted}"`);
  const end = (text) => /until (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC)/.exec(text)?.[1];
  if (!end(told) || end(told) !== end(muted)) throw new Error(`the mute notice "${told}" and the refusal "${muted}" give its end apart`);
  const lines = await troll.page.$$eval("#lobby-chat-log li", (els) => els.map((e) => e.textContent));
  if (lines.some((l) => l.includes("buy more gold"))) throw new Error("a muted line reached the chat");

  // Kicked: thrown out with the reason, held out for the kick hold, then back by itself (a kick
  // is not a ban).
  await mod.page.fill("#mod-reason", "cool off");
  await moderate(mod, "troll_acc", "kick", "troll_acc kicked");
  await troll.page.waitForFunction(() => /KICKED: cool off/.test(document.getElementById("flash")?.textContent ?? ""),
    null, { timeout: 10_000 });
  await troll.page.waitForSelector("#link-state.link-online", { timeout: 15_000 });
  // Online is the socket; the moderators' list shows the player once its Hello is through.
  for (let tries = 0; tries < 20; ++tries) {
    await mod.page.click("#mod-refresh");
    if (await mod.page.$('#mod-players li[data-name="troll_acc"]')) break;
    await new Promise((r) => setTimeout(r, 250));
  }

  // Banned for good: thrown out, and refused when it comes back, even after a reload.
  await mod.page.fill("#mod-reason", "repeated spam");
  await mod.page.selectOption("#mod-duration", "0");
  await mod.page.click("#mod-refresh");
  await moderate(mod, "troll_acc", "ban", "troll_acc banned");
  await troll.page.waitForFunction(() => /BANNED: banned for good: repeated spam/.test(document.getElementById("flash")?.textContent ?? ""),
    null, { timeout: 10_000 });
  await troll.page.reload();
  await troll.page.waitForFunction(() => /account is banned for good\. Reason: repeated spam/.test(document.getElementById("ban-text")?.textContent ?? ""),
    null, { timeout: 10_000 }).catch(async () => { throw new Error(`after a reload the banned page reads: ${await troll.page.innerText("body")}`); });
  if (await troll.page.$("#create-form")) throw new Error("the banned player got back into the lobby");
  const state = await troll.page.innerText("#link-state");
  if (state !== "banned") throw new Error(`the banned account's status line reads "${state}"`);

  // A banned address: thrown out, and after a reload (its upgrade refused with a 403 the page
  // cannot read) shown the ban from GET /api/ban, with its reason and end.
  const far = await openParticipant("Faraway", server.url, undefined, { "X-Forwarded-For": FAR_ADDRESS });
  opened.push(far);
  await mod.page.fill("#mod-reason", "ban evasion");
  await mod.page.selectOption("#mod-duration", "3600");
  await mod.page.click("#mod-refresh");
  const farRow = '#mod-players li[data-name="Faraway"]';
  await mod.page.waitForSelector(farRow, { timeout: 10_000 });
  await mod.page.click(`${farRow} button.ban-address`);
  await mod.page.waitForFunction((a) => document.getElementById("mod-notice")?.textContent === `${a} banned`, FAR_ADDRESS,
    { timeout: 10_000 });
  await far.page.reload();
  await far.page.waitForFunction(() => /address is banned until \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\. Reason: ban evasion/
    .test(document.getElementById("ban-text")?.textContent ?? ""), null, { timeout: 10_000 })
    .catch(async () => { throw new Error(`the banned address sees: ${await far.page.innerText("body")}`); });
  if ((await far.page.innerText("#link-state")) !== "banned") throw new Error("the banned address still says it reconnects");
  await checkAxe(mod.page, "the moderators' page");

  // The audit log on the page shows the three actions on the troll.
  await mod.page.click("#mod-refresh");
  await mod.page.waitForFunction(() => {
    const actions = [...document.querySelectorAll("#audit-log li")]
      .filter((li) => li.getAttribute("data-target") === "troll_acc").map((li) => li.getAttribute("data-action"));
    return actions.join(",") === "ban,kick,mute";
  }, null, { timeout: 10_000 }).catch(async () => {
    throw new Error(`the audit log reads: ${await mod.page.innerText("#audit-log")}`);
  });
  console.log("ok   a moderator mutes, kicks and bans a player and an address from the web page; the banned see the ban, its reason and end; the audit log shows it");
} catch (e) {
  failed = true;
  console.log(`FAIL moderation: ${e.stack ?? e}`);
  console.log(server.log().slice(-3000));
} finally {
  for (const p of opened) await p.close().catch(() => {});
  await server.stop();
}
process.exit(failed ? 1 : 0);
