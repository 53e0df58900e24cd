// Development shortcut (not run by ctest): node quick.mjs <binary> <dist> <which...>
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { deadEnds, forceBattlesSetup, phoneBar, resignIn, twoTabs } from "./journeys.mjs";
import { openParticipant } from "./players.mjs";
import { startServer } from "./server.mjs";

const [binary, webRoot, ...which] = process.argv.slice(2);
const out = resolve("/tmp/duelhall-shots");
mkdirSync(out, { recursive: true });
const server = await startServer(resolve(binary), resolve(webRoot));
const opened = [];
try {
  for (const w of which) {
    const t = Date.now();
    try {
      if (w === "tabs") console.log(await twoTabs(server, 5));
      if (w === "dead") {
        const ps = await Promise.all(["Hope", "Gale", "Late"].map((n) => openParticipant(n, server.url)));
        opened.push(...ps);
        await deadEnds(server, ...ps, out);
      }
      if (w.startsWith("resign:")) {
        const ps = await Promise.all(["Rey", "Kylo", "Finn"].map((n) => openParticipant(n, server.url)));
        opened.push(...ps);
        for (const r of w.slice(7).split(",")) await resignIn(r, ps, out);
      }
      if (w === "phone") console.log(await phoneBar(server, out));
      if (w === "fb") console.log(await forceBattlesSetup(server, out));
      console.log(`ok ${w} ${(Date.now() - t) / 1000}s`);
    } catch (e) {
      console.log(`FAIL ${w}: ${e.stack}`);
    }
  }
} finally {
  for (const p of opened) await p.close().catch(() => {});
  await server.stop();
}
