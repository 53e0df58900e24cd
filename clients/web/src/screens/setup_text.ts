// A Force Battles setup as text, the form a named setup is saved in (docs/accounts.md, "Saved
// decks": the server keeps it as written): one line per choice, names rather than numbers where
// the rules give names, so a saved setup reads as the player built it.
//   side light|dark, hand left|right, colour <name>, spheres <7 counts: HL HR center LT RT LL RL>,
//   att <n>, def <n>, geas <13 counts in the rules' order>
export interface SetupChoices {
  side: number; // 0 Light, 1 Dark
  hand: number; // 0 left, 1 right
  colour: number; // an index of SETUP_COLOURS
  spheres: number[];
  att: number;
  def: number;
  geas: number[];
}

export const SETUP_COLOURS = ["green", "orange", "blue", "red", "purple", "yellow"];
const SPHERE_COUNT = 7;
const GEAS_COUNT = 13;

export function setupText(c: SetupChoices): string {
  return [`side ${c.side === 0 ? "light" : "dark"}`, `hand ${c.hand === 0 ? "left" : "right"}`,
    `colour ${SETUP_COLOURS[c.colour] ?? "green"}`, `spheres ${c.spheres.join(" ")}`, `att ${c.att}`,
    `def ${c.def}`, `geas ${c.geas.join(" ")}`].join("\n") + "\n";
}

// The choices a text names, or null for text that is not a setup (the engine still judges each
// step: these are only the plan the offered steps are picked by).
export function parseSetup(text: string): SetupChoices | null {
  const fields = new Map<string, string[]>();
  for (const line of text.split("\n")) {
    const words = line.trim().split(/\s+/).filter((w) => w !== "");
    if (words.length) fields.set(words[0].toLowerCase(), words.slice(1));
  }
  const one = (key: string) => fields.get(key)?.[0];
  const counts = (key: string, n: number) => {
    const values = (fields.get(key) ?? []).map(Number);
    return values.length === n && values.every((v) => Number.isInteger(v) && v >= 0 && v <= 99) ? values : null;
  };
  const number = (key: string) => {
    const v = Number(one(key));
    return Number.isInteger(v) && v >= 0 && v <= 99 ? v : null;
  };
  const side = ["light", "dark"].indexOf(one("side") ?? "");
  const hand = ["left", "right"].indexOf(one("hand") ?? "");
  const colour = SETUP_COLOURS.indexOf(one("colour") ?? "");
  const spheres = counts("spheres", SPHERE_COUNT);
  const geas = counts("geas", GEAS_COUNT);
  const att = number("att");
  const def = number("def");
  if (side < 0 || hand < 0 || colour < 0 || !spheres || !geas || att === null || def === null) return null;
  return { side, hand, colour, spheres, att, def, geas };
}
