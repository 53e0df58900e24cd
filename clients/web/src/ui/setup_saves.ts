// A signed-in player's named Force Battles setups beside the setup form (docs/accounts.md, "Saved
// decks"): pick one to fill the form, or save the form under a name. They are saved decks of the
// force_battles ruleset, kept as text (screens/setup_text.ts).
import { h } from "../dom";
import { ResultCode } from "../gen/result_pb";
import { signedIn } from "../identity";
import type { Session } from "../session";
import { deckState, ensureDecks, loadDecks } from "../decks/saved_decks";
import { planText, usePlanText } from "../screens/force_battles_setup";

let said = ""; // the last load or save, told under the controls

async function load(session: Session, match: bigint, id: string): Promise<void> {
  if (!id) return;
  const reply = await session.command({ case: "getDeck", value: { id: BigInt(id) } });
  if (reply.result !== ResultCode.OK || reply.body.case !== "deck") return;
  said = usePlanText(match, reply.body.value.list)
    ? `Loaded ${reply.body.value.summary?.name ?? "the setup"}.` : "That saved setup cannot be read.";
  session.changed();
}

async function save(session: Session, match: bigint, name: string): Promise<void> {
  const reply = await session.command({
    case: "saveDeck", value: { id: 0n, name, ruleset: "force_battles", list: planText(match), isPublic: false, copyOf: 0n },
  });
  if (reply.result !== ResultCode.OK) return;
  said = `Saved as ${name}.`;
  await loadDecks(session);
}

export function setupSaves(session: Session, match: bigint): HTMLElement | null {
  if (!signedIn()) return null;
  ensureDecks(session);
  const setups = deckState.decks.filter((d) => d.ruleset === "force_battles");
  return h("div", { class: "field", id: "fb-saves" },
    h("label", { for: "fb-saved" }, "Saved setups"),
    h("select", { id: "fb-saved" }, h("option", { value: "" }, setups.length ? "choose one" : "none saved yet"),
      ...setups.map((d) => h("option", { value: String(d.id) }, d.name))),
    h("button", { type: "button", class: "secondary", id: "fb-load", onclick: () =>
      void load(session, match, (document.getElementById("fb-saved") as HTMLSelectElement | null)?.value ?? "") }, "Load"),
    h("label", { for: "fb-save-name" }, "Save this setup as"),
    h("input", { id: "fb-save-name", maxlength: 64 }),
    h("button", { type: "button", class: "secondary", id: "fb-save", onclick: () => {
      const name = (document.getElementById("fb-save-name") as HTMLInputElement | null)?.value.trim() ?? "";
      if (name) void save(session, match, name);
    } }, "Save"),
    said ? h("p", { class: "hint", id: "fb-saves-said", "data-say": "fb-saves" }, said) : null);
}
