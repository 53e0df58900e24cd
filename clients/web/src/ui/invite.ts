// The link to share while a match waits for players: for a private match it carries the invite
// code (kept in the browser, so a reload still shows it), for a public one it is the plain join
// link. A copy button puts it on the clipboard.
import { h } from "../dom";
import type { MatchView } from "../session";
import { announce } from "./page";
import { inviteLink } from "./route";

// Shown beside the button and said through the page's live region (the status line is redrawn).
function tell(status: HTMLElement, text: string): void {
  status.textContent = text;
  announce(text);
}

async function copy(text: string, field: HTMLInputElement, status: HTMLElement): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    field.select(); // no clipboard access (plain http, permissions): the text is selected to copy
    if (!document.execCommand("copy")) {
      tell(status, "Select the link and copy it");
      return;
    }
  }
  tell(status, "Copied");
}

export function invitePanel(mv: MatchView): HTMLElement | null {
  if (!mv.info || mv.seat < 0) return null;
  // Only private matches have a code; a public match's plain join link works for anyone.
  const secret = mv.info.unlisted || mv.inviteCode !== "";
  if (mv.info.unlisted && !mv.inviteCode) {
    return h("p", { class: "hint" }, "This private match's invite code is not kept in this browser.");
  }
  const link = inviteLink(mv.id, mv.inviteCode);
  const field = h("input", { readonly: true, id: "invite", value: link, "aria-label": "invite link" }) as HTMLInputElement;
  const status = h("span", { class: "hint", id: "invite-status" });
  return h("div", { class: "invite" },
    h("label", { for: "invite" }, secret ? "Invite link (private match)" : "Link to share"),
    h("div", { class: "invite-row" }, field,
      h("button", { type: "button", id: "copy-invite", onclick: () => void copy(link, field, status) }, "Copy")),
    status);
}
