// Decodes what the server sent to a page, in node, with the client's own generated types and
// diff code (loaded through Vite's SSR loader, so the test never copies a message format).
import { fromBinary } from "@bufbuild/protobuf";
import { createServer } from "vite";
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";

const root = resolve(fileURLToPath(import.meta.url), "../../..");

export async function loadDecoders() {
  const vite = await createServer({ root, logLevel: "error", server: { middlewareMode: true, hmr: false },
    appType: "custom", optimizeDeps: { noDiscovery: true } });
  const envelope = await vite.ssrLoadModule("/src/gen/envelope_pb.ts");
  const diff = await vite.ssrLoadModule("/src/wire_diff.ts");
  const views = await vite.ssrLoadModule("/src/views.ts");
  return {
    close: () => vite.close(),
    serverMessage: (bytes) => fromBinary(envelope.ServerMessageSchema, new Uint8Array(bytes)),
    applyPatch: diff.applyPatch,
    decodeView: views.decodeView,
  };
}

// Follows one match's view stream through a page's frames: seq -> {view, events}.
export function followMatch(decoders, frames, matchId, viewMessage) {
  const steps = new Map();
  let view = null;
  let seq = -1n;
  for (const bytes of frames) {
    const m = decoders.serverMessage(bytes);
    if (m.body.case === "snapshot" && m.body.value.match?.matchId === matchId) {
      view = m.body.value.view;
      seq = m.body.value.seq;
      steps.set(seq, { bytes: view, view: decoders.decodeView(viewMessage, view), events: [] });
    } else if (m.body.case === "update" && m.body.value.matchId === matchId && view) {
      const u = m.body.value;
      if (u.seq !== seq + 1n) continue;
      view = decoders.applyPatch(view, u.patch);
      if (!view) throw new Error(`patch ${u.seq} does not apply`);
      seq = u.seq;
      steps.set(seq, { bytes: view, view: decoders.decodeView(viewMessage, view), events: u.events });
    }
  }
  return steps;
}
