// The Jedi Duel case: Alice hosts, Carol watches from before the start, Bob joins; they play to
// the end by clicking the offered actions. Bob reloads his page and Alice loses her connection
// mid-match; both must come back to the same view and play on.
import { followMatch } from "./frames.mjs";
import { actOnce, createMatch, matchState, screenshot } from "./players.mjs";

const RELOAD_AT = 4;
const DROP_AT = 8;
const SHOT_AT = 14;
const MAX_ACTIONS = 3000;

async function waitFor(what, test, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await test();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function handCards(page) {
  return page.$$eval(".hand [data-card]", (els) => els.map((e) => Number(e.getAttribute("data-card"))));
}

// Carol's page at the same step as the players': no hand section, and no card shown that sits
// in a player's hand.
export async function checkSpectatorDom(carol, hands) {
  const shown = await carol.page.$$eval("[data-card]", (els) => els.map((e) => Number(e.getAttribute("data-card"))));
  const leaked = shown.filter((c) => hands.has(c));
  if (leaked.length) throw new Error(`the spectator's page shows hand cards ${leaked.join(", ")}`);
  if (await carol.page.$(".hand")) throw new Error("the spectator's page has a hand section");
}

async function sameViewAfter(participant, id, disturb) {
  const before = await matchState(participant.page, id);
  const boardBefore = await participant.page.innerText(".board");
  await disturb();
  await waitFor(`${participant.name} to come back to the same view`, async () => {
    const after = await matchState(participant.page, id).catch(() => null);
    return after && after.view === before.view && after.seq === before.seq;
  });
  await waitFor(`${participant.name}'s board to be drawn again`, async () =>
    (await participant.page.innerText(".board").catch(() => "")) === boardBefore);
  await waitFor("the connection to be back", async () =>
    (await participant.page.innerText("#link-state")) === "connected");
}

export async function playDuel({ alice, bob, carol, outDir, pick }) {
  const id = await createMatch(alice, "jedi_duel", { delayActions: 0 });
  await carol.page.evaluate((mid) => (location.hash = `#/watch/${mid}`), String(id));
  await carol.page.waitForSelector("#spectator-badge");
  await bob.page.click(`li[data-match="${id}"] button.join`);
  const players = [alice, bob];
  const all = [alice, bob, carol];
  await waitFor("the match to start on every page", async () => {
    const states = await Promise.all(all.map((p) => matchState(p.page, id)));
    return states.every((s) => s && s.view !== "");
  });
  await alice.page.fill("#chat-input", "may the best duellist win");
  await alice.page.press("#chat-input", "Enter");
  for (const p of [bob, carol]) {
    await p.page.waitForFunction(() =>
      document.getElementById("chat-log")?.textContent?.includes("Alice: may the best duellist win"));
  }
  let actions = 0;
  let domChecks = 0;
  for (; actions < MAX_ACTIONS; ) {
    const states = await Promise.all(players.map((p) => matchState(p.page, id)));
    if (states.every((s) => s.over)) break;
    const turn = players.findIndex((_, i) => states[i].legal > 0);
    if (turn < 0) {
      await new Promise((r) => setTimeout(r, 20));
      continue;
    }
    const seq = states[turn].seq;
    await actOnce(players[turn].page, pick);
    ++actions;
    await waitFor(`action ${actions} to reach every page`, async () => {
      const now = await Promise.all(all.map((p) => matchState(p.page, id)));
      return now.every((s) => s.seq === seq + 1);
    });
    const hands = new Set([...(await handCards(alice.page)), ...(await handCards(bob.page))]);
    await checkSpectatorDom(carol, hands);
    ++domChecks;
    if (actions === RELOAD_AT) {
      await sameViewAfter(bob, id, () => bob.page.reload());
      await sameViewAfter(carol, id, () => carol.page.reload());
      await carol.page.waitForSelector("#spectator-badge");
    }
    if (actions === DROP_AT) {
      await sameViewAfter(alice, id, async () => {
        await alice.page.evaluate(() => window.duelhall.conn.drop());
        await waitFor("Alice to notice the drop", async () =>
          (await alice.page.innerText("#link-state")) !== "connected");
      });
    }
    if (actions === SHOT_AT) {
      await screenshot(alice.page, outDir, "jedi_duel.png");
      await screenshot(carol.page, outDir, "jedi_duel-spectator.png");
    }
  }
  for (const p of all) await p.page.waitForSelector("#outcome", { timeout: 30_000 });
  await screenshot(alice.page, outDir, "jedi_duel-end.png");
  if (actions >= MAX_ACTIONS) throw new Error(`no end after ${actions} actions`);
  if (actions <= DROP_AT) throw new Error(`the match ended after ${actions} actions, before the drop`);
  return { id, actions, domChecks, frames: { alice: alice.frames, bob: bob.frames, carol: carol.frames } };
}

const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const SUITS = ["\u2663", "\u2666", "\u2665", "\u2660"];
function cardName(c) {
  return `${RANKS[(c - 1) % 13]}${SUITS[Math.floor((c - 1) / 13)]}`;
}

// Every view Carol's frames build, step by step beside the players' own views: no hand, no
// private field, and no event naming a card (other than the two alike Jokers) that sits in a
// player's hand at that step, unless Carol saw it face up the step before (a fumbled Stance
// goes back to its owner's hand in plain sight).
export function checkSpectatorFrames(decoders, viewMessage, result) {
  const a = followMatch(decoders, result.frames.alice, result.id, viewMessage);
  const b = followMatch(decoders, result.frames.bob, result.id, viewMessage);
  const c = followMatch(decoders, result.frames.carol, result.id, viewMessage);
  if (c.size < result.actions) throw new Error(`the spectator saw ${c.size} steps of ${result.actions}`);
  let events = 0;
  let faceUp = new Set();
  for (const [seq, step] of c) {
    const v = step.view;
    if (!v) throw new Error(`spectator view ${seq} does not decode`);
    for (const p of v.players) {
      if (p.hand.length) throw new Error(`spectator view ${seq} holds seat ${p.seat}'s hand`);
    }
    if (v.sensedHand.length || v.justDrawn.length || v.knownDeckCards.length || v.drawDeck.length || v.omniscient) {
      throw new Error(`spectator view ${seq} holds a private field`);
    }
    const va = a.get(seq)?.view;
    const vb = b.get(seq)?.view;
    if (!va || !vb) continue; // a step a player took in through a snapshot after its reload
    const sig = (x) => [x.turn, x.phase, x.decider, x.deckSize, x.discardSize, x.discardTop].join("/");
    if (sig(v) !== sig(va)) throw new Error(`spectator step ${seq} is not the players' step ${seq}`);
    const hands = [...va.players[0].hand, ...vb.players[1].hand].filter((x) => x <= 52 && !faceUp.has(x));
    for (const text of step.events) {
      ++events;
      for (const card of hands) {
        if (text.includes(cardName(card))) throw new Error(`spectator event "${text}" names ${cardName(card)} in a hand`);
      }
    }
    faceUp = new Set([...v.players.map((p) => p.stanceCard), v.discardTop, v.attack?.card ?? 0]);
  }
  return { spectatorViews: c.size, events };
}
