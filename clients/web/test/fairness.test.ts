// The browser's SHA-256 and seed commitment against published SHA-256 vectors and the server's
// own pinned commitment (tests/storage/fairness_test.cpp: seed_from_number(1)).
import { describe, expect, it } from "vitest";
import { checkFairness, seedCommitment, sha256, toHex } from "../src/fairness";

const text = (s: string) => new TextEncoder().encode(s);

describe("sha256", () => {
  it("matches the standard vectors, across block boundaries", () => {
    expect(toHex(sha256(text("")))).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(toHex(sha256(text("abc")))).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // 56 bytes: the length no longer fits the first block.
    expect(toHex(sha256(text("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")))).toBe(
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    expect(toHex(sha256(text("a".repeat(1000))))).toBe(
      "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3");
  });
});

describe("seed commitment", () => {
  const seed = "01" + "00".repeat(31);
  const pinned = "4f3cb64b8ca7c49cda6f24ac2df13e927e7a4c65180720dff668d6ae26cce2e8";

  it("is the server's commitment for the same seed and engine version", () => {
    expect(seedCommitment(seed, "duelhall-engine/0.1.0")).toBe(pinned);
    expect(seedCommitment(seed, "duelhall-engine/0.1.1")).not.toBe(pinned);
    expect(seedCommitment("zz", "duelhall-engine/0.1.0")).toBeNull();
    expect(seedCommitment("00", "duelhall-engine/0.1.0")).toBeNull();
  });

  it("is verified only once the revealed seed matches", () => {
    const version = "duelhall-engine/0.1.0";
    expect(checkFairness({ seedCommitment: "", seed: "", engineVersion: version })).toBe("none");
    expect(checkFairness({ seedCommitment: pinned, seed: "", engineVersion: version })).toBe("committed");
    expect(checkFairness({ seedCommitment: pinned, seed, engineVersion: version })).toBe("verified");
    expect(checkFairness({ seedCommitment: pinned.toUpperCase(), seed, engineVersion: version })).toBe("verified");
    const other = "02" + "00".repeat(31);
    expect(checkFairness({ seedCommitment: pinned, seed: other, engineVersion: version })).toBe("mismatch");
    expect(checkFairness({ seedCommitment: pinned, seed, engineVersion: "duelhall-engine/9" })).toBe("mismatch");
  });
});
