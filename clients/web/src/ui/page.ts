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

// Says `text` through the live region. The same words twice in a row are still read: the region
// is emptied first, then filled on the next frame.
export function announce(text: string): void {
  if (!text) return;
  const el = liveRegion();
  el.textContent = "";
  requestAnimationFrame(() => (el.textContent = text));
}
