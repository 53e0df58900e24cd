// Force Battles' secret setup in a handful of clicks. The engine asks for it one small step at a
// time (side, hand, colour, seven spheres, ATT, DEF, thirteen GEAS slots, the free GEAS,
// confirm: up to 27 choices). Here the player fills in one form, starting from a suggested build
// (3 in every sphere, as the rules' default stance), and "Use this setup" plays the steps through
// the offered actions, picking at each step the offered count nearest the plan (the engine only
// offers counts that can still complete a legal setup). A step with a single choice is taken
// without asking. Nothing here decides legality: every step is one of the server's legal actions.
import { h } from "../dom";
import type { LegalAction } from "../gen/match_pb";
import { argOf, kindOf } from "./screen";
import { parseSetup, setupText } from "./setup_text";

const SIDE = 1, HAND = 2, COLOUR = 3, SPHERE = 4, ATT = 5, DEF = 6, GEAS = 7, CONFIRM = 9; // 8: the free GEAS
const SPHERES = ["HL", "HR", "center", "LT", "RT", "LL", "RL"];
const GEAS_NAMES = ["Hide", "Jump", "Mind Trick", "Sight", "Push", "Pull", "Speed", "Lightning",
  "Lightning Absorb", "Heal", "Choke", "Protect", "Rage"];
const COLOURS = ["green", "orange", "blue", "red", "purple", "yellow"];
const BUDGET: { [level: string]: number } = { learner: 31, initiate: 35, templar: 40, diamedes: 50 };

interface Plan {
  side: number; // 0 Light, 1 Dark
  hand: number; // 0 left, 1 right
  colour: number;
  spheres: number[];
  att: number;
  def: number;
  geas: number[];
  running: boolean; // "Use this setup" was clicked: the steps are being played
  sentSeq: bigint; // the view seq the last step was sent at (one step per view)
  busy: boolean; // a step is on its way: the next waits for its answer
  // The view that arrived while a step was on its way. Under protocol 2 the step's answer is the
  // update itself, which is drawn before the step's promise settles: the step after it starts
  // from here, since no further redraw comes.
  waiting?: () => void;
}

const plans = new Map<bigint, Plan>();

function suggested(): Plan {
  const geas = GEAS_NAMES.map(() => 0);
  geas[1] = 1; // Jump
  geas[4] = 1; // Push
  return { side: 0, hand: 1, colour: 0, spheres: SPHERES.map(() => 3), att: 4, def: 3, geas, running: false, sentSeq: -1n, busy: false };
}

function planFor(id: bigint): Plan {
  let p = plans.get(id);
  if (!p) {
    p = suggested();
    plans.set(id, p);
  }
  return p;
}

// The plan of match `id` as a saved setup's text, and a saved setup's text made the plan (false:
// not a setup).
export function planText(id: bigint): string {
  return setupText(planFor(id));
}
export function usePlanText(id: bigint, text: string): boolean {
  const choices = parseSetup(text);
  if (!choices) return false;
  Object.assign(planFor(id), choices);
  return true;
}

export function isSetupStep(legal: LegalAction[]): boolean {
  return legal.length > 0 && legal.every((a) => kindOf(a.code) >= SIDE && kindOf(a.code) <= CONFIRM);
}

function nearest(legal: LegalAction[], arg: number, want: number): LegalAction {
  let best = legal[0];
  for (const a of legal) {
    if (Math.abs(argOf(a.code, arg) - want) < Math.abs(argOf(best.code, arg) - want)) best = a;
  }
  return best;
}

// The offered action that follows the plan at this step.
function choose(plan: Plan, legal: LegalAction[]): LegalAction {
  const first = legal[0];
  const kind = kindOf(first.code);
  const match = (arg: number, want: number) => legal.find((a) => argOf(a.code, arg) === want) ?? first;
  switch (kind) {
    case SIDE: return match(0, plan.side);
    case HAND: return match(0, plan.hand);
    case COLOUR: return match(0, plan.colour);
    case SPHERE: return nearest(legal, 1, plan.spheres[argOf(first.code, 0)] ?? 3);
    case ATT: return nearest(legal, 0, plan.att);
    case DEF: return nearest(legal, 0, plan.def);
    case GEAS: return nearest(legal, 1, plan.geas[argOf(first.code, 0)] ?? 0);
    default: return first; // the free GEAS (the first of the side's) and confirm
  }
}

// The step the plan of match `id` takes among `legal` (exported for the unit tests).
export function setupChoice(id: bigint, legal: LegalAction[]): LegalAction {
  return choose(planFor(id), legal);
}

// Called on every redraw of the match: plays the next step when the plan runs, or takes a step
// that offers a single choice (confirming stays the player's click unless the plan runs).
export function driveSetup(id: bigint, seq: bigint, legal: LegalAction[], act: (code: bigint) => Promise<void>): void {
  if (!isSetupStep(legal)) return;
  const plan = planFor(id);
  if (plan.sentSeq === seq) return;
  if (plan.busy) {
    plan.waiting = () => driveSetup(id, seq, legal, act);
    return;
  }
  const single = legal.length === 1 && kindOf(legal[0].code) !== CONFIRM;
  if (!plan.running && !single) return;
  plan.sentSeq = seq;
  plan.busy = true;
  const code = choose(plan, legal).code;
  setTimeout(() => void act(code).finally(() => {
    plan.busy = false;
    const next = plan.waiting;
    plan.waiting = undefined;
    next?.();
  }), 0); // after this redraw
}

function stepper(label: string, id: string, value: number, max: number, set: (n: number) => void, redraw: () => void): HTMLElement {
  const change = (n: number) => {
    set(Math.max(0, Math.min(max, n)));
    redraw();
  };
  return h("div", { class: "stepper" },
    h("label", { for: id }, label),
    h("button", { type: "button", class: "secondary small", "aria-label": `one less in ${label}`, onclick: () => change(value - 1) }, "\u2212"),
    h("input", { id, type: "number", min: 0, max, value, "data-keep": "model", inputmode: "numeric",
      onchange: (e: Event) => change(Number((e.target as HTMLInputElement).value) || 0) }),
    h("button", { type: "button", class: "secondary small", "aria-label": `one more in ${label}`, onclick: () => change(value + 1) }, "+"));
}

function choice(name: string, options: string[], value: number, set: (n: number) => void, redraw: () => void): HTMLElement {
  return h("fieldset", { class: "choice" }, h("legend", {}, name),
    ...options.map((o, i) => h("label", {}, h("input", { type: "radio", name: `fb-${name}`, "data-keep": "model",
      checked: i === value, onchange: () => { set(i); redraw(); } }), ` ${o}`)));
}

// `saves`: the signed-in player's saved setups (ui/setup_saves.ts), shown with the form.
export function setupPlanner(id: bigint, legal: LegalAction[], competency: string, redraw: () => void,
  saves: HTMLElement | null = null): HTMLElement | null {
  if (!isSetupStep(legal)) return null;
  const plan = planFor(id);
  if (plan.running) {
    return h("section", { class: "setup-planner", id: "fb-setup", "aria-label": "your setup" },
      h("p", {}, "Placing your setup, step by step..."));
  }
  const total = BUDGET[competency] ?? BUDGET.learner;
  const used = plan.spheres.reduce((a, b) => a + b, 0) + plan.att + plan.def + plan.geas.reduce((a, b) => a + b, 0);
  const allowed = (g: number) => !(plan.side === 0 ? [7, 10, 12] : [8, 9, 11]).includes(g);
  if (plan.side === 1) plan.colour = 3; // Dark plays red
  else if (plan.colour === 3) plan.colour = 0; // Light never red
  return h("section", { class: "setup-planner", id: "fb-setup", "aria-labelledby": "fb-setup-h" },
    h("h3", { id: "fb-setup-h" }, "Your setup"),
    h("p", { class: "hint" }, "A suggested build is filled in. Change what you like, then use it. ",
      `Counters: ${used} of ${total} placed, ${Math.max(0, total - used)} left for the pool.`),
    h("button", { id: "fb-setup-go", onclick: () => { plan.running = true; redraw(); } }, "Use this setup"),
    saves,
    h("details", { class: "options", id: "fb-setup-edit" }, h("summary", {}, "Change the setup"),
      choice("Side", ["Light", "Dark"], plan.side, (n) => (plan.side = n), redraw),
      choice("Hand", ["left", "right"], plan.hand, (n) => (plan.hand = n), redraw),
      plan.side === 0 ? choice("Colour", COLOURS.filter((c) => c !== "red"), plan.colour > 3 ? plan.colour - 1 : plan.colour,
        (n) => (plan.colour = n >= 3 ? n + 1 : n), redraw) : h("p", {}, "Colour: red (the Dark side plays red)"),
      h("fieldset", {}, h("legend", {}, "Spheres (1 to 4 each)"),
        ...SPHERES.map((s, i) => stepper(s, `fb-sphere-${i}`, plan.spheres[i], 4, (n) => (plan.spheres[i] = Math.max(1, n)), redraw))),
      h("fieldset", {}, h("legend", {}, "ATT and DEF (10 at most together)"),
        stepper("ATT", "fb-att", plan.att, 10, (n) => (plan.att = n), redraw),
        stepper("DEF", "fb-def", plan.def, 10, (n) => (plan.def = n), redraw)),
      h("fieldset", {}, h("legend", {}, "GEAS"),
        ...GEAS_NAMES.map((g, i) => allowed(i) ? stepper(g, `fb-geas-${i}`, plan.geas[i], total, (n) => (plan.geas[i] = n), redraw) : null))));
}
