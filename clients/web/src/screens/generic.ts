// The fallback screen: any view this build can decode, shown as a readable tree, so a ruleset
// added on the server without a dedicated screen is still playable through its legal actions.
import { h } from "../dom";
import type { ScreenContext } from "./screen";

function tree(value: unknown, depth = 0): HTMLElement {
  if (Array.isArray(value)) {
    if (value.every((x) => typeof x !== "object")) return h("span", {}, `[${value.join(", ")}]`);
    return h("ol", {}, ...value.map((x) => h("li", {}, tree(x, depth + 1))));
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value).filter(([k]) => k !== "$typeName" && k !== "$unknown");
    return h("dl", {}, ...entries.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, tree(v, depth + 1))]));
  }
  return h("span", {}, String(value));
}

export function genericScreen(ctx: ScreenContext): HTMLElement {
  return h("div", { class: "board generic" }, tree(ctx.view));
}
