// Accounts in the browser: two players register, play a rated Force Battles match to its end
// through the UI and see the rating change; one signs out, signs in from a fresh browser profile
// and finds the match in its history with the rating change; the leaderboard orders them.
import { chooser, matchState, openParticipant, routeMatchId, screenshot } from "./players.mjs";

// One legal action of the page's own, chosen by `pick` and sent through the page's session (the
// buttons are redrawn by every update of the other player, so clicks would race them).
async function actFromPage(page, id, pick) {
  const count = await page.evaluate((mid) => window.duelhall.matches.get(BigInt(mid))?.legal.length ?? 0, String(id));
  if (!count) return false;
  await page.evaluate(([mid, i]) => {
    const m = window.duelhall.matches.get(BigInt(mid));
    const action = m?.legal[i];
    return action ? window.duelhall.act(m.id, action.code) : undefined;
  }, [String(id), pick(count)]);
  return true;
}

async function register(p, name, password) {
  await p.page.click("#account-link");
  await p.page.fill("#signup-name", name);
  await p.page.fill("#signup-password", password);
  await p.page.click("#signup-form button[type=submit]");
  await p.page.waitForSelector("#sign-out", { timeout: 10_000 }).catch(async () => {
    throw new Error(`${name} did not get signed up: ${await p.page.innerText("main")}`);
  });
}

export async function accountsScenario({ server, opened, outDir }) {
  const ann = await openParticipant("Ann", server.url);
  const ben = await openParticipant("Ben", server.url);
  opened.push(ann, ben);
  await register(ann, "ann_acc", "ann's password");
  await register(ben, "ben_acc", "ben's password");
  // A weak password is refused with its reason, and nothing is created.
  const eve = await openParticipant("Eve", server.url);
  opened.push(eve);
  await eve.page.click("#account-link");
  await eve.page.fill("#signup-name", "eve_acc");
  await eve.page.fill("#signup-password", "short");
  await eve.page.evaluate(() => document.getElementById("signup-password").removeAttribute("required"));
  await eve.page.click("#signup-form button[type=submit]");
  const refusal = await eve.page.waitForSelector("#account-error");
  if (!/8 characters/.test(await refusal.innerText())) throw new Error(`weak password: "${await refusal.innerText()}"`);

  // Ann hosts a rated match, Ben joins from the lobby, and they play it to its end.
  await ann.page.goto(`${server.url}#/`);
  await ann.page.waitForSelector("#create-form");
  await ann.page.selectOption("#ruleset", "force_battles");
  await ann.page.click("#table-options summary");
  await ann.page.check("#rated");
  await ann.page.click("#create");
  const id = await routeMatchId(ann.page);
  await ben.page.goto(`${server.url}#/`);
  await ben.page.click(`li[data-match="${id}"] button.join`);
  await ann.page.waitForSelector(".board:not(.waiting)");
  const pick = chooser(515);
  let over = false;
  for (let i = 0; i < 4000 && !over; ++i) {
    let acted = false;
    for (const p of [ann, ben]) acted = (await actFromPage(p.page, id, pick)) || acted;
    over = Boolean((await matchState(ann.page, id))?.over);
    if (!acted && !over) await ann.page.waitForTimeout(30);
  }
  if (!over) throw new Error("the rated match did not end");
  const note = await ann.page.waitForSelector("#rating-change", { timeout: 15_000 });
  const noteText = await note.innerText();
  if (!/ann_acc \d+ \([+-]\d+\)/.test(noteText)) throw new Error(`rating note reads "${noteText}"`);
  await screenshot(ann.page, outDir, "rated-end.png");

  // Ann signs out, then signs in from a fresh browser profile and finds the match.
  await ann.page.click("#account-link");
  await ann.page.click("#sign-out");
  await ann.page.waitForSelector("#signin-form");
  const again = await openParticipant("Somebody", server.url);
  opened.push(again);
  await again.page.click("#account-link");
  await again.page.fill("#signin-name", "ANN_ACC"); // names are found whatever their case
  await again.page.fill("#signin-password", "ann's password");
  await again.page.click("#signin-form button[type=submit]");
  await again.page.waitForSelector("#sign-out");
  const entry = await again.page.waitForSelector(`#history li[data-history="${id}"] .rating-change`);
  const entryText = await entry.innerText();
  if (!/[+-]\d+ \(\d+\)/.test(entryText)) throw new Error(`the history shows "${entryText}"`);
  const annChange = Number(/([+-]\d+)/.exec(entryText)[1]);
  await screenshot(again.page, outDir, "profile.png");

  // The leaderboard orders them by rating.
  await again.page.click("#leaderboard-link");
  await again.page.selectOption("#board-ruleset", "force_battles");
  await again.page.waitForFunction(() => document.querySelectorAll("#leaderboard li").length === 2);
  const order = await again.page.$$eval("#leaderboard li", (els) => els.map((e) => e.getAttribute("data-name")));
  const expected = annChange > 0 ? ["ann_acc", "ben_acc"] : ["ben_acc", "ann_acc"];
  if (annChange !== 0 && order.join() !== expected.join()) {
    throw new Error(`leaderboard order ${order.join(", ")} after Ann's ${annChange}`);
  }
  // And the same history over HTTP, as JSON.
  const json = await (await fetch(`${server.url}api/accounts/ann_acc/matches`)).json();
  if (json.matches[0]?.match_id !== Number(id) || json.matches[0]?.rating_change === undefined) {
    throw new Error(`the JSON history is ${JSON.stringify(json)}`);
  }
}
