// The seed commitment, checked in the browser: the server publishes SHA-256 of the match's seed
// bound to the engine version when the match is created, and reveals the seed when it ends
// (server/fairness/commitment.hpp, docs/storage.md). Recomputing the hash here means a player
// need not take the server's word that the shuffles and rolls were fixed before anyone acted.
// SHA-256 is written out because crypto.subtle exists only on secure origins, and a community
// server is often reached over plain HTTP on a LAN address.

const DOMAIN = "duelhall-seed-v1";

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

export function sha256(message: Uint8Array): Uint8Array {
  // Padding: a 1 bit, zeros, then the length in bits as a 64-bit big-endian number.
  const blocks = Math.ceil((message.length + 9) / 64);
  const padded = new Uint8Array(blocks * 64);
  padded.set(message);
  padded[message.length] = 0x80;
  const bits = message.length * 8;
  const tail = new DataView(padded.buffer, padded.length - 8);
  tail.setUint32(0, Math.floor(bits / 2 ** 32));
  tail.setUint32(4, bits >>> 0);

  const hash = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  const data = new DataView(padded.buffer);
  for (let block = 0; block < blocks; ++block) {
    for (let i = 0; i < 16; ++i) w[i] = data.getUint32(block * 64 + i * 4);
    for (let i = 16; i < 64; ++i) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = hash;
    for (let i = 0; i < 64; ++i) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    const next = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; ++i) hash[i] = (hash[i] + next[i]) >>> 0;
  }
  const out = new Uint8Array(32);
  const view = new DataView(out.buffer);
  hash.forEach((word, i) => view.setUint32(i * 4, word));
  return out;
}

export function toHex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function fromHex(hex: string): Uint8Array | null {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) return null;
  return Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
}

// SHA-256("duelhall-seed-v1" 0x00 engine-version 0x00 seed-bytes), as the server computes it.
export function seedCommitment(seedHex: string, engineVersion: string): string | null {
  const seed = fromHex(seedHex);
  if (!seed || seed.length !== 32) return null;
  const text = new TextEncoder();
  const domain = text.encode(DOMAIN);
  const version = text.encode(engineVersion);
  const preimage = new Uint8Array(domain.length + 1 + version.length + 1 + seed.length);
  preimage.set(domain, 0);
  preimage.set(version, domain.length + 1);
  preimage.set(seed, domain.length + 1 + version.length + 1);
  return toHex(sha256(preimage));
}

export type Fairness = "committed" | "verified" | "mismatch" | "none";

// "committed" while the seed is secret; after the end, whether the revealed seed matches.
export function checkFairness(m: { seedCommitment: string; seed: string; engineVersion: string }): Fairness {
  if (!m.seedCommitment) return "none";
  if (!m.seed) return "committed";
  return seedCommitment(m.seed, m.engineVersion) === m.seedCommitment.toLowerCase() ? "verified" : "mismatch";
}
