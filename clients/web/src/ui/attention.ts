// "Your move", even in another tab: the tab title and the favicon change while one of the
// player's matches waits for its decision, and an optional short sound plays when that starts.
import { h } from "../dom";
import { pageTitle } from "./page";

const SOUND_KEY = "duelhall.sound";

function icon(turn: boolean): string {
  const fill = turn ? "#ffd166" : "#2b4a7a";
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
    `<rect x="3" y="2" width="26" height="28" rx="5" fill="${fill}" stroke="#f2f4f8" stroke-width="2"/>` +
    `<text x="16" y="23" font-size="18" font-family="sans-serif" font-weight="700" text-anchor="middle" ` +
    `fill="${turn ? "#111" : "#f2f4f8"}">${turn ? "!" : "D"}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

function faviconLink(): HTMLLinkElement {
  let link = document.getElementById("favicon") as HTMLLinkElement | null;
  if (!link) {
    link = document.createElement("link");
    link.id = "favicon";
    link.rel = "icon";
    document.head.append(link);
  }
  return link;
}

export function soundOn(): boolean {
  return localStorage.getItem(SOUND_KEY) === "on";
}

function beep(): void {
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.25);
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.25);
    osc.onended = () => void ctx.close();
  } catch {
    // no audio here: the title and icon still say it
  }
}

let shown: boolean | null = null;
// True when the turn has just come (false before it), for the caller to announce it.
export function showTurn(turn: boolean): boolean {
  document.title = turn ? `\u25cf Your move \u00b7 ${pageTitle()}` : pageTitle();
  if (turn === shown) return false;
  const started = turn && shown === false;
  shown = turn;
  faviconLink().href = icon(turn);
  document.documentElement.dataset.turn = turn ? "yours" : "";
  if (started && soundOn()) beep();
  return started;
}

export function soundToggle(onChange: () => void): HTMLElement {
  const on = soundOn();
  return h("button", { class: "secondary small", id: "sound-toggle", "aria-pressed": on ? "true" : "false",
    title: "Play a short sound when it becomes your move", onclick: () => {
      localStorage.setItem(SOUND_KEY, on ? "off" : "on");
      onChange();
    } }, on ? "Sound on" : "Sound off");
}
