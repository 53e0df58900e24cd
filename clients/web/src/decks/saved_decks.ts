// Saved decks in the browser (docs/accounts.md, "Saved decks"): an account's decks on the server
// (ListDecks, GetDeck, SaveDeck, DeleteDeck), a guest's in this browser's localStorage until it
// signs up or in (then they move to the account), and the editor's live check (CheckDeck, the
// server's own Y1 check). The pages draw from `deckState`; the server stays the judge.
import type { DeckCheck, DeckSummary } from "../gen/decks_pb";
import { ResultCode } from "../gen/result_pb";
import { signedIn } from "../identity";
import type { Session } from "../session";

const GUEST_DECKS_KEY = "duelhall.decks";

export interface GuestDeck {
  id: number; // local only, negative so it never meets a server id
  name: string;
  list: string;
  updated: number;
}

export interface Editing {
  id: bigint; // 0: not saved yet; negative: a guest's local deck
  name: string;
  list: string;
  isPublic: boolean;
  own: boolean; // false: another account's public deck, read-only
  ownerName: string;
}

export const deckState = {
  decks: [] as DeckSummary[],
  maxDecks: 0,
  loaded: false,
  error: "",
  notice: "",
  editing: undefined as Editing | undefined,
  check: undefined as DeckCheck | undefined,
  checkedList: "" as string | undefined,
};

export function guestDecks(): GuestDeck[] {
  try {
    const raw = JSON.parse(localStorage.getItem(GUEST_DECKS_KEY) ?? "[]") as GuestDeck[];
    return Array.isArray(raw) ? raw.filter((d) => typeof d.name === "string" && typeof d.list === "string") : [];
  } catch {
    return [];
  }
}

function keepGuestDecks(decks: GuestDeck[]): void {
  localStorage.setItem(GUEST_DECKS_KEY, JSON.stringify(decks));
}

function refused(reply: { result: ResultCode; reason: string }): string {
  return reply.reason || ResultCode[reply.result] || "refused";
}

export async function loadDecks(session: Session): Promise<void> {
  if (!signedIn()) {
    deckState.loaded = true;
    session.changed();
    return;
  }
  const reply = await session.conn.send({ case: "listDecks", value: {} });
  if (reply.result === ResultCode.OK && reply.body.case === "decks") {
    deckState.decks = reply.body.value.decks;
    deckState.maxDecks = reply.body.value.maxDecks;
    deckState.error = "";
  } else {
    deckState.error = refused(reply);
  }
  deckState.loaded = true;
  session.changed();
}

// Opens a deck in the editor: a saved one by id (ours, or another's public one, read-only), a
// guest's local one, or a new empty deck.
export async function openDeck(session: Session, id: bigint): Promise<void> {
  deckState.check = undefined;
  if (id === 0n) {
    deckState.editing = { id: 0n, name: "New deck", list: "", isPublic: false, own: true, ownerName: "" };
  } else if (id < 0n) {
    const local = guestDecks().find((d) => BigInt(d.id) === id);
    deckState.editing = local
      ? { id, name: local.name, list: local.list, isPublic: false, own: true, ownerName: "" }
      : undefined;
  } else {
    const reply = await session.conn.send({ case: "getDeck", value: { id } });
    if (reply.result !== ResultCode.OK || reply.body.case !== "deck") {
      deckState.error = refused(reply);
      deckState.editing = undefined;
      session.changed();
      return;
    }
    const d = reply.body.value;
    deckState.editing = { id, name: d.summary?.name ?? "", list: d.list, isPublic: d.summary?.isPublic ?? false,
      own: d.own, ownerName: d.summary?.ownerName ?? "" };
  }
  session.changed();
  if (deckState.editing) void checkList(session, deckState.editing.list);
}

// The server's check of the editor's list; an older answer than the list shown is dropped.
export async function checkList(session: Session, list: string): Promise<void> {
  deckState.checkedList = list;
  const reply = await session.conn.send({ case: "checkDeck", value: { ruleset: "young_jedi", list, seat: -1 } });
  if (deckState.checkedList !== list) return;
  if (reply.result === ResultCode.OK && reply.body.case === "deckCheck") deckState.check = reply.body.value;
  else deckState.error = refused(reply);
  session.changed();
}

// Saves the editor's deck: to the account (create or replace), or to this browser for a guest.
export async function saveEditing(session: Session): Promise<boolean> {
  const e = deckState.editing;
  if (!e || !e.own) return false;
  if (!signedIn()) {
    const decks = guestDecks();
    const id = e.id < 0n ? Number(e.id) : Math.min(-1, ...decks.map((d) => d.id - 1));
    keepGuestDecks([...decks.filter((d) => d.id !== id), { id, name: e.name, list: e.list, updated: Date.now() }]);
    e.id = BigInt(id);
    deckState.notice = `Saved "${e.name}" in this browser: sign up to keep it with an account.`;
    session.changed();
    return true;
  }
  const reply = await session.conn.send({ case: "saveDeck", value: {
    id: e.id > 0n ? e.id : 0n, name: e.name, ruleset: "young_jedi", list: e.list, isPublic: e.isPublic, copyOf: 0n } });
  if (reply.result !== ResultCode.OK || reply.body.case !== "deck") {
    deckState.error = refused(reply);
    if (reply.body.case === "deckCheck") deckState.check = reply.body.value;
    session.changed();
    return false;
  }
  e.id = reply.body.value.summary?.id ?? e.id;
  deckState.error = "";
  deckState.notice = `Saved "${e.name}".`;
  await loadDecks(session);
  return true;
}

// A copy of a deck (ours or a public one) as a new deck of the account.
export async function copyDeck(session: Session, id: bigint, name = ""): Promise<void> {
  const reply = await session.conn.send({ case: "saveDeck", value: {
    id: 0n, name, ruleset: "", list: "", isPublic: false, copyOf: id } });
  if (reply.result !== ResultCode.OK || reply.body.case !== "deck") {
    deckState.error = refused(reply);
    session.changed();
    return;
  }
  deckState.notice = `Copied as "${reply.body.value.summary?.name}".`;
  await loadDecks(session);
  await openDeck(session, reply.body.value.summary?.id ?? 0n);
}

export async function deleteDeck(session: Session, id: bigint): Promise<void> {
  if (id < 0n) {
    keepGuestDecks(guestDecks().filter((d) => BigInt(d.id) !== id));
  } else {
    const reply = await session.conn.send({ case: "deleteDeck", value: { id } });
    if (reply.result !== ResultCode.OK) deckState.error = refused(reply);
  }
  if (deckState.editing?.id === id) deckState.editing = undefined;
  await loadDecks(session);
}

let loading = false;
// The decks loaded once per sign-in (a guest's moved to the account first); safe on every redraw.
export function ensureDecks(session: Session): void {
  if (deckState.loaded || loading) return;
  loading = true;
  void moveGuestDecks(session).then(() => loadDecks(session)).finally(() => (loading = false));
}

// A guest's decks move to the account once it is signed in: each is saved there and, when the
// server took it, taken out of this browser (a refused one stays, with the reason shown).
export async function moveGuestDecks(session: Session): Promise<void> {
  if (!signedIn()) return;
  let left = guestDecks();
  for (const deck of [...left]) {
    const reply = await session.conn.send({ case: "saveDeck", value: {
      id: 0n, name: deck.name, ruleset: "young_jedi", list: deck.list, isPublic: false, copyOf: 0n } });
    if (reply.result === ResultCode.OK) left = left.filter((d) => d.id !== deck.id);
    else deckState.error = `"${deck.name}" stayed in this browser: ${refused(reply)}`;
  }
  keepGuestDecks(left);
  await loadDecks(session);
}
