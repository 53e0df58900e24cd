// What every page has, whatever it shows: one h1 naming it, a document title saying the same
// (with "Your move" in front while a match waits for the player, ui/attention.ts), and one live
// region, made once and never redrawn, that reads out the turn and the new events (a region
// rebuilt on every update is announced unreliably, or not at all).
import { h } from "../dom";

export const SITE = "Duelhall";
let pageName = "";

export function pageHeading(text: string, id = "page-h"): HTMLElement {
  setPageName(text);
  return h("h1", { id, class: "page-h" }, text);
}

export function setPageName(name: string): void {
  pageName = name;
}

// "<page> · Duelhall", or "Duelhall" alone on the lobby.
export function pageTitle(): string {
  return pageName ? `${pageName} \u00b7 ${SITE}` : SITE;
}

let region: HTMLElement | null = null;
// The page's live region, outside the redrawn app root (main.ts makes it once).
export function liveRegion(): HTMLElement {
  if (!region) {
    region = h("div", { id: "announcer", class: "sr-only", role: "status", "aria-live": "polite", "aria-atomic": "true" });
    document.body.append(region);
  }
  return region;
}

// Says `text` through the live region. Words said in one redraw are read together (a second
// call before the next frame adds to the first instead of replacing it); the same words twice in
// a row are still read: the region is emptied first, then filled on the next frame. A hidden tab
// draws no frames, so what piles up meanwhile is kept to its last few messages.
const MAX_PENDING = 6;
let pending: string[] = [];
export function announce(text: string): void {
  if (!text) return;
  const el = liveRegion();
  if (!pending.length) {
    el.textContent = "";
    requestAnimationFrame(() => {
      el.textContent = pending.join(" ");
      pending = [];
    });
  }
  pending.push(text);
  if (pending.length > MAX_PENDING) pending.shift();
}

// Messages drawn inside the redrawn root (a refused move, an error, a ban, an announcement) carry
// `data-say="<key>"` instead of a live role of their own: a region rebuilt on every update is
// read unreliably, an alert re-inserted on every update is read again each time. After each
// redraw, each one's text is said once through the live region when it is new for its key.
const said = new Map<string, string>();
export function sayNewMessages(root: ParentNode): void {
  const shown = new Set<string>();
  for (const el of root.querySelectorAll<HTMLElement>("[data-say]")) {
    const key = el.dataset.say ?? "";
    const text = el.textContent?.trim() ?? "";
    shown.add(key);
    if (text && said.get(key) !== text) announce(text);
    said.set(key, text);
  }
  for (const key of [...said.keys()]) if (!shown.has(key)) said.delete(key); // said again if it comes back
}
