// One browser participant per fresh Chromium profile (Debian's chromium, never a downloaded
// browser), with every WebSocket frame it receives recorded, and helpers to drive the UI.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

// `headers`: sent with every request of the page (an X-Forwarded-For through a trusted proxy).
export async function openParticipant(name, baseUrl, viewport = { width: 1100, height: 900 }, headers = undefined) {
  const profile = mkdtempSync(join(tmpdir(), "duelhall-chromium-"));
  // launchPersistentContext passes the fresh profile as --user-data-dir.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.DUELHALL_CHROMIUM ?? "/usr/bin/chromium",
    headless: true, args: ARGS, viewport, extraHTTPHeaders: headers,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    ...(await enter(name, baseUrl, page)), context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

// Several participants in one Chromium, each in a context of its own (its own storage, so its
// own identity and live tab, as a fresh profile): one browser to start instead of one each.
// `who`: [name, baseUrl] pairs. Closing a participant closes its context; `close()` the browser.
export async function openParticipantsTogether(who, viewport = { width: 1100, height: 900 }) {
  const browser = await chromium.launch({
    executablePath: process.env.DUELHALL_CHROMIUM ?? "/usr/bin/chromium", headless: true, args: ARGS,
  });
  try {
    const people = await Promise.all(who.map(async ([name, baseUrl]) => {
      const context = await browser.newContext({ viewport });
      return { ...(await enter(name, baseUrl, await context.newPage())), context, close: () => context.close() };
    }));
    return { people, close: () => browser.close() };
  } catch (e) {
    await browser.close();
    throw e;
  }
}

// Opens the lobby on `page`, every binary WebSocket frame it receives recorded, and enters `name`.
async function enter(name, baseUrl, page) {
  const frames = [];
  page.on("websocket", (ws) => ws.on("framereceived", (f) => {
    if (typeof f.payload !== "string") frames.push(Buffer.from(f.payload));
  }));
  page.on("pageerror", (e) => console.error(`[${name}] page error: ${e.message}`));
  await page.goto(baseUrl);
  await page.fill("#name", name);
  await page.click("#name-form button[type=submit]");
  await page.waitForSelector("#create-form");
  return { name, page, frames, url: baseUrl };
}

// The match the page shows, from its route.
export async function routeMatchId(page) {
  try {
    await page.waitForFunction(() => /#\/match\/\d+/.test(location.hash));
  } catch (e) {
    // What the page showed instead, so that a failed run says why it stayed.
    const seen = await page.evaluate(() => ({
      hash: location.hash,
      link: document.getElementById("link-state")?.textContent ?? "",
      flash: document.getElementById("flash")?.textContent ?? "",
      main: document.getElementById("main")?.className ?? "",
      invalid: [...document.querySelectorAll("#create-form :invalid")].map((e) => `${e.id}: ${e.validationMessage}`),
    })).catch(() => ({}));
    throw new Error(`the page did not open a match: ${JSON.stringify(seen)}; ${e.message}`);
  }
  return BigInt(/#\/match\/(\d+)/.exec(await page.evaluate(() => location.hash))[1]);
}

// The client state of a match as the page holds it (seq, whether it ended, legal count).
export async function matchState(page, id) {
  return page.evaluate((mid) => {
    const m = window.duelhall.matches.get(BigInt(mid));
    if (!m) return null;
    return { seq: Number(m.seq), over: Boolean(m.outcome), legal: m.legal.length,
      view: m.view ? Array.from(m.view).join(",") : "" };
  }, String(id));
}

export async function createMatch(p, ruleset, options = {}) {
  await p.page.selectOption("#ruleset", ruleset);
  // The table settings fold away by default: unfolded (once) before the first setting.
  const unfold = async () => {
    if (!(await p.page.$eval("#table-options", (d) => d.open))) await p.page.click("#table-options summary");
  };
  if (options.unlisted) await unfold().then(() => p.page.check("#unlisted"));
  if (options.delayActions !== undefined) await unfold().then(() => p.page.fill("#delay_actions", String(options.delayActions)));
  if (options.botDelay !== undefined) await unfold().then(() => p.page.fill("#bot_delay", String(options.botDelay)));
  if (options.clock !== undefined) await unfold().then(() => p.page.fill("#clock", String(options.clock)));
  if (options.botLevel !== undefined) await unfold().then(() => p.page.selectOption("#bot_level", options.botLevel));
  await p.page.click(options.vsComputer ? "#vs-computer" : "#create");
  return routeMatchId(p.page);
}

// Picks among the offered action buttons with a seeded generator, so runs are repeatable.
export function chooser(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    return x % n;
  };
}

// Clicks one offered action if the page has any; true when it acted. The button is found again
// by its code at the click, since any message may redraw the page in between.
export async function actOnce(page, pick) {
  const codes = await page.$$eval("#actions button.action", (els) => els.map((e) => e.getAttribute("data-code")));
  if (!codes.length) return false;
  await page.click(`#actions button.action[data-code="${codes[pick(codes.length)]}"]`);
  return true;
}

export async function screenshot(page, dir, file) {
  await page.screenshot({ path: join(dir, file), fullPage: true });
}

// Keyboard alone: Tab to the first action button (focus may already sit on one), then on through
// `pick` more of them, and press Enter. Conceding is left out so matches run to a real end.
export async function actByKeyboard(page, pick = () => 0) {
  const labels = await page.$$eval("#actions button.action", (els) => els.map((e) => e.textContent ?? ""));
  const choices = labels.map((l, i) => [l, i]).filter(([l]) => !/^concede/i.test(l));
  if (!choices.length) return false;
  const target = choices[pick(choices.length)][1];
  const focusedIndex = () => page.evaluate(() =>
    [...document.querySelectorAll("#actions button.action")].indexOf(document.activeElement));
  for (let i = 0; i < 120; ++i) {
    const at = await focusedIndex();
    if (at === target) {
      await page.keyboard.press("Enter");
      return true;
    }
    if (at > target) {
      await page.keyboard.press("Shift+Tab");
    } else {
      await page.keyboard.press("Tab");
    }
  }
  return false;
}

// The lowest text contrast on the page (WCAG 2 ratio) over every element that holds text,
// against the nearest opaque background behind it; SVG text is left out (its fills are checked
// by eye in the screenshots).
export async function lowestContrast(page) {
  return page.evaluate(() => {
    const rgb = (c) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const lum = ([r, g, b]) => {
      const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el) => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length >= 3 && (c.length === 3 || c[3] === 1)) return c;
      }
      return rgb(getComputedStyle(document.body).backgroundColor);
    };
    let worst = { ratio: 99, text: "" };
    for (const el of document.querySelectorAll("body *")) {
      if (el instanceof SVGElement || !(el instanceof HTMLElement) || !el.offsetParent && el.tagName !== "BODY") continue;
      const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
      if (!own) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden") continue;
      const a = lum(rgb(style.color));
      const b = lum(background(el));
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < worst.ratio) worst = { ratio, text: el.textContent.trim().slice(0, 40) };
    }
    return worst;
  });
}
