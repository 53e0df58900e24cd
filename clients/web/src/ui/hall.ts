// The hall's views (docs/pairing.md, "Challenges, presence and TV"): notifications (a challenge
// to answer, a followed player's new match to watch), the challenge form on a player's page and
// in the followed list, the followed list with presence, the lobby's counts, and the TV page.
import { h } from "../dom";
import { FollowedPlayer_Presence } from "../gen/hall_pb";
import type { Hall, Notice } from "../hall";
import type { Session } from "../session";
import { pageHeading } from "./page";
import { go } from "./route";

const PRESENCE_WORDS: Record<number, string> = {
  [FollowedPlayer_Presence.OFFLINE]: "offline",
  [FollowedPlayer_Presence.ONLINE]: "online",
  [FollowedPlayer_Presence.PLAYING]: "playing",
  [FollowedPlayer_Presence.AWAY]: "away",
};

function noticeItem(hall: Hall, n: Notice): HTMLElement {
  const reasonId = `decline-reason-${n.id}`;
  const incoming = n.challenge !== undefined ? hall.incoming.get(n.challenge) : undefined;
  return h("li", { class: "notice", "data-notice": String(n.id) },
    h("span", { "data-say": `notice-${n.id}` }, n.text),
    n.watch ? h("a", { href: `#/watch/${n.watch}`, class: "watch-link" }, " Watch") : null,
    n.play ? h("a", { href: `#/match/${n.play}`, class: "play-link" }, " Go to the match") : null,
    incoming && n.challenge !== undefined ? h("span", { class: "answer" },
      h("button", { class: "accept-challenge", onclick: () => void hall.answer(n.challenge as bigint, true) }, "Accept"),
      h("label", { for: reasonId }, "Reason"),
      h("input", { id: reasonId, maxlength: 200, placeholder: "optional" }),
      h("button", { class: "secondary decline-challenge", onclick: () => {
        const reason = (document.getElementById(reasonId) as HTMLInputElement | null)?.value ?? "";
        void hall.answer(n.challenge as bigint, false, reason);
      } }, "Decline")) : null,
    incoming ? null : h("button", { class: "secondary small", "aria-label": "dismiss notification", "data-offline": "ok",
      onclick: () => hall.dismiss(n.id) }, "\u2715"));
}

// Under the top bar on every page, while there is something to see.
export function notifications(hall: Hall): HTMLElement | null {
  if (!hall.notices.length) return null;
  return h("section", { class: "panel notices", id: "notifications", "aria-label": "notifications" },
    h("ul", {}, ...hall.notices.map((n) => noticeItem(hall, n))));
}

// The top bar's badge: how many notifications are shown.
export function noticeBadge(hall: Hall): HTMLElement | null {
  const n = hall.notices.length;
  return n ? h("a", { href: "#notifications", class: "badge", id: "notice-badge", "aria-label": `${n} notifications` }, String(n)) : null;
}

// The tab's title, with the notifications raised while the page was in the background.
export function titleWithUnseen(hall: Hall, title: string): string {
  return hall.unseen ? `(${hall.unseen}) ${title}` : title;
}

export function challengeForm(session: Session, hall: Hall, name: string): HTMLElement {
  const key = name.replace(/[^A-Za-z0-9_-]/g, "_");
  const waiting = [...hall.outgoing.values()].find((u) => u.challenge?.to.toLowerCase() === name.toLowerCase());
  const form = h("form", { class: "panel challenge-form", id: `challenge-${key}`, "aria-label": `challenge ${name}`,
    onsubmit: (e: Event) => {
      e.preventDefault();
      const f = e.target as HTMLFormElement;
      const value = (n: string) => (f.elements.namedItem(n) as HTMLInputElement | null);
      void hall.challenge(name, {
        ruleset: value("ruleset")?.value ?? "", seats: 2, spectatorsAllowed: true,
        rated: value("rated")?.checked ?? false, clockSeconds: Number(value("clock")?.value) || 0,
      });
    } },
    h("h2", {}, `Challenge ${name}`),
    h("label", { for: `challenge-ruleset-${key}` }, "Ruleset"),
    h("select", { id: `challenge-ruleset-${key}`, name: "ruleset" },
      ...session.rulesets.filter((r) => r.minSeats <= 2 && r.maxSeats >= 2).map((r) => h("option", { value: r.name }, r.displayName))),
    h("label", { for: `challenge-clock-${key}` }, "Decision clock (seconds, 0 none)"),
    h("input", { id: `challenge-clock-${key}`, name: "clock", type: "number", min: 0, max: 3600, value: 0 }),
    h("label", {}, h("input", { type: "checkbox", name: "rated", id: `challenge-rated-${key}` }), " Rated"),
    waiting?.challenge
      ? h("span", {}, h("span", { class: "hint" }, "Challenge sent, waiting for the answer. "),
          h("button", { type: "button", class: "secondary", onclick: () => void hall.cancel(waiting.challenge!.challengeId) }, "Withdraw"))
      : h("button", { type: "submit", class: "send-challenge" }, "Challenge"),
    h("button", { type: "button", class: "secondary follow-toggle", onclick: () => void hall.follow(name, !hall.follows(name)) },
      hall.follows(name) ? "Unfollow" : "Follow"));
  return form;
}

export function followedPanel(hall: Hall): HTMLElement | null {
  if (!hall.followed.length) return null;
  return h("section", { class: "panel", id: "followed", "aria-labelledby": "followed-h" },
    h("h2", { id: "followed-h" }, "Players you follow"),
    h("ul", {}, ...hall.followed.map((p) => h("li", { "data-followed": p.name },
      h("a", { href: `#/player/${encodeURIComponent(p.name)}` }, p.name), " ",
      h("span", { class: `presence presence-${PRESENCE_WORDS[p.presence]}` }, PRESENCE_WORDS[p.presence] ?? ""),
      p.presence === FollowedPlayer_Presence.PLAYING && p.matchId ? h("a", { href: `#/watch/${p.matchId}`, class: "watch-link" }, " Watch") : null,
      p.presence === FollowedPlayer_Presence.ONLINE ? h("a", { href: `#/player/${encodeURIComponent(p.name)}`, class: "challenge-link" }, " Challenge") : null))));
}

// The lobby's "who is online": opened (and refreshed) with its button; each name has a
// Challenge button that opens the challenge form under the list.
export function onlinePanel(session: Session, hall: Hall): HTMLElement {
  const list = hall.online;
  return h("section", { class: "panel", id: "online", "aria-labelledby": "online-h" },
    h("h2", { id: "online-h" }, "Who is online"),
    h("button", { type: "button", class: "secondary", id: "list-online", onclick: () => void hall.listOnline() },
      list ? "Refresh" : "Show who is online"),
    list ? h("ul", {}, ...list.players.map((p) => h("li", { "data-online": p.name },
      h("a", { href: `#/player/${encodeURIComponent(p.name)}` }, p.name), " ",
      h("span", { class: `presence presence-${PRESENCE_WORDS[p.presence]}` }, PRESENCE_WORDS[p.presence] ?? ""),
      p.presence === FollowedPlayer_Presence.PLAYING && p.matchId ? h("a", { href: `#/watch/${p.matchId}`, class: "watch-link" }, " Watch") : null,
      h("button", { type: "button", class: "secondary small online-challenge", "aria-label": `challenge ${p.name}`,
        onclick: () => { hall.onlineChallenge = hall.onlineChallenge === p.name ? "" : p.name; session.changed(); } }, "Challenge")))) : null,
    list && list.total > list.players.length ? h("p", { class: "hint" }, `and ${list.total - list.players.length} more`) : null,
    hall.onlineChallenge ? challengeForm(session, hall, hall.onlineChallenge) : null);
}

export function countsLine(hall: Hall): HTMLElement | null {
  const c = hall.counts;
  if (!c) return null;
  return h("p", { class: "hint", id: "hall-counts" },
    `${c.playersOnline} ${c.playersOnline === 1 ? "player" : "players"} online, ` +
    `${c.matchesInPlay} ${c.matchesInPlay === 1 ? "match" : "matches"} in play. `,
    h("a", { href: "#/tv", id: "tv-link" }, "Watch the TV"));
}

// #/tv/<ruleset>: the featured match of the ruleset, watched as a spectator; `screen` draws it.
export function tvPage(session: Session, hall: Hall, ruleset: string, screen: (id: bigint) => HTMLElement): HTMLElement {
  const chosen = ruleset || session.rulesets[0]?.name || "";
  if (chosen && hall.tvRuleset !== chosen && session.ready) void hall.watchTv(chosen);
  const bar = h("nav", { class: "panel tv-bar", "aria-label": "TV" },
    h("label", { for: "tv-ruleset" }, "TV: "),
    h("select", { id: "tv-ruleset", onchange: (e: Event) => go(`#/tv/${(e.target as HTMLSelectElement).value}`) },
      ...session.rulesets.map((r) => h("option", { value: r.name, selected: r.name === chosen }, r.displayName))),
    h("span", { class: "hint", id: "tv-why" }, hall.tv?.matchId
      ? (hall.tv.rated ? ` the highest-rated match in play (${Math.round(hall.tv.rating)})` : " the longest-running match in play")
      : ""));
  const id = hall.tv?.ruleset === chosen ? hall.tv.matchId : 0n;
  if (!id) {
    return h("main", { class: "lobby", id: "main" }, pageHeading(`TV: ${session.ruleset(chosen)?.displayName ?? chosen}`), bar,
      h("p", { class: "hint", id: "tv-empty" }, "No match of this ruleset is in play now; the TV shows the next one that starts."));
  }
  const main = screen(id);
  main.prepend(bar);
  return main;
}
