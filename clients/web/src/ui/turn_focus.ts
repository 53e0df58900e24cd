// Keyboard and screen-reader players on the match page (WCAG 2.2 AA): focus stays in the move
// panel after a move (the clicked button is gone with the redraw), goes there when the turn
// comes (unless the player is busy elsewhere, typing in the chat say), and the one live region
// (ui/page.ts) says "your move", the new events, chat lines and the result.
import type { MatchView } from "../session";
import { announce } from "./page";
import { seatNamer, withNames } from "./names";

interface Seen {
  events: number;
  chat: number;
  legal: number;
  over: boolean;
}
const seen = new Map<bigint, Seen>();
const ANNOUNCED_EVENTS = 3; // a burst (a bot's whole setup) is read as its last few lines

// Where focus was before a redraw: in the move panel, nowhere (the page body), or elsewhere.
export type FocusPlace = "panel" | "body" | "elsewhere";
export function focusPlace(): FocusPlace {
  const active = document.activeElement;
  if (!active || active === document.body) return "body";
  return active.closest("#action-bar") !== null ? "panel" : "elsewhere";
}

export function firstMove(): HTMLElement | null {
  return document.querySelector<HTMLElement>("#action-bar .action:not([disabled]), #action-bar #fb-setup-go");
}

// Puts focus on the first offered move, else on the move panel itself.
export function focusMovePanel(): void {
  (firstMove() ?? document.getElementById("action-bar"))?.focus();
}

// After a redraw of match `mv`'s page: `was` is focusPlace() from before it. Focus that was in
// the panel stays there (its button may be gone); the turn coming takes it there from the panel
// or from nowhere, never from where the player is busy (the chat, a link).
export function afterMatchRedraw(mv: MatchView, was: FocusPlace): void {
  const before = seen.get(mv.id);
  const now: Seen = { events: mv.eventCount, chat: mv.chat.length, legal: mv.legal.length, over: Boolean(mv.outcome) };
  seen.set(mv.id, now);
  const turnCame = mv.seat >= 0 && now.legal > 0 && (!before || before.legal === 0);
  const active = document.activeElement;
  const lost = !active || active === document.body;
  if ((was === "panel" && lost) || (turnCame && was !== "elsewhere")) focusMovePanel();
  if (!before) return;
  const name = seatNamer(mv);
  const words: string[] = [];
  if (now.over && !before.over) words.push(document.getElementById("outcome")?.textContent ?? "The match is over.");
  else if (turnCame) words.push("Your move.");
  const fresh = now.events > before.events ? mv.events.slice(-Math.min(now.events - before.events, ANNOUNCED_EVENTS)) : [];
  words.push(...fresh.slice(-ANNOUNCED_EVENTS).map((e) => withNames(e, name)));
  const chat = now.chat >= before.chat ? mv.chat.slice(before.chat) : [];
  words.push(...chat.map((c) => `${c.from} says: ${c.text}`));
  if (words.length) announce(words.join(" "));
}

// The "skip to your move" link, first on the page while a move is offered.
export function skipLinkTarget(e: Event): void {
  e.preventDefault();
  focusMovePanel();
}
