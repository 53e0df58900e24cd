// Reads patch vectors ("<before> <patch> <after>" in hex, "-" for empty) on stdin and checks
// that the JavaScript applier rebuilds every "after" exactly.
import {applyPatch} from '../../../proto/wire_diff.mjs';
import {readFileSync} from 'node:fs';

const fromHex = (h) => (h === '-' ? new Uint8Array() : Uint8Array.from(Buffer.from(h, 'hex')));
const lines = readFileSync(0, 'utf8').split('\n').filter((l) => l.length > 0);
let failures = 0;
for (const line of lines) {
  const [before, patch, after] = line.split(' ').map(fromHex);
  const rebuilt = applyPatch(before, patch);
  if (Buffer.compare(Buffer.from(rebuilt), Buffer.from(after)) !== 0) failures++;
}
console.log(`${lines.length} patches applied, ${failures} mismatches`);
process.exit(lines.length > 0 && failures === 0 ? 0 : 1);
