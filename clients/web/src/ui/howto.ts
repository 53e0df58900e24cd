// The "How to play" page (#/rules/<ruleset>): the short rules for players, the board's terms,
// and a way back to where the player came from.
import { h } from "../dom";
import { HOW_TO, TERMS } from "../rules/howto";
import { backSvg, cardSvg } from "../screens/cards";
import { body } from "../screens/force_battles";
import type { Session } from "../session";
import { setPageName } from "./page";

export function rulesLink(ruleset: string, text = "How to play"): HTMLElement {
  return h("a", { class: "rules-link", href: `#/rules/${ruleset}`, "data-rules": ruleset }, text);
}

// The board's own pictures, drawn by the match screens' code.
function pictures(ruleset: string): HTMLElement | null {
  if (ruleset === "jedi_duel") {
    const fig = (card: number, caption: string) => h("figure", {}, cardSvg(card), h("figcaption", {}, caption));
    return h("div", { class: "cards rules-pictures" }, fig(20, "7\u2666: Stance in High"), fig(34, "8\u2665: Middle"),
      fig(43, "4\u2660: Low"), fig(11, "J\u2663: a \u2663 royal"), h("figure", {}, backSvg(5, "cards in a hand"), h("figcaption", {}, "a hand of 5")));
  }
  if (ruleset === "force_battles") {
    const stance = { spheres: [3, 3, 3, 3, 3, 3, 3], targets: [0, 0, 0, 0, 0, 0] };
    return h("figure", { class: "rules-pictures" }, body(stance, 0, 3),
      h("figcaption", {}, "The default stance: 3 in each sphere (circles); the squares are the six targets."));
  }
  return null;
}

export function rulesPage(session: Session, ruleset: string): HTMLElement {
  const names = Object.keys(HOW_TO);
  const chosen = HOW_TO[ruleset] ? ruleset : names[0];
  const howto = HOW_TO[chosen];
  const terms = TERMS[chosen] ?? [];
  setPageName(`How to play ${howto.title}`);
  return h("main", { class: "lobby rules", id: "rules", "data-ruleset": chosen },
    h("nav", { class: "panel rules-nav", "aria-label": "rulesets" },
      h("h2", {}, "How to play"),
      h("ul", {}, ...names.map((n) => h("li", {}, n === chosen ? h("strong", {}, HOW_TO[n].title)
        : h("a", { href: `#/rules/${n}` }, HOW_TO[n].title)))),
      h("p", {}, h("button", { class: "secondary small", id: "rules-back", "data-offline": "ok", onclick: () => history.back() }, "\u2190 Back"),
        " ", h("a", { href: "#/" }, "The lobby")),
      session.ruleset(chosen) ? h("p", { class: "hint" }, session.ruleset(chosen)?.summary ?? "") : null),
    h("article", { class: "panel rules-text", "aria-labelledby": "rules-h" },
      h("h1", { id: "rules-h" }, howto.title),
      h("p", { class: "goal" }, howto.goal),
      ...howto.sections.flatMap((s) => [h("h2", {}, s.heading), h("ul", {}, ...s.points.map((p) => h("li", {}, p)))]),
      h("h2", {}, "On the screen"),
      pictures(chosen),
      h("p", {}, howto.board),
      terms.length ? h("h2", {}, "Words on the buttons") : null,
      terms.length ? h("dl", { class: "terms" }, ...terms.flatMap((t) => [h("dt", {}, t.name), h("dd", {}, t.hint)])) : null));
}
