// Applies the server's view patches (the diff format of docs/protocol.md, reference
// implementation proto/wire_diff.cpp). Only the apply side lives here: the client never makes
// patches. A patch that does not fit returns null and the client asks for a snapshot.

// Entry header: field number << 2 | op; header 0 carries the whole new message.
const OP_REPLACE = 0;
const OP_ELEMENTS = 1;
const OP_VARINT = 2; // the field is now one varint record: its value follows
const OP_REMOVE = 3; // the field has no records any more
// The same bound as the C++ side: deeper nesting is refused, which bounds recursion.
const MAX_DEPTH = 16;
const MAX_FIELD = 0x1fffffff;

interface Record {
  field: number;
  wireType: number;
  start: number; // the record's whole bytes are bytes[start, end)
  tagEnd: number;
  payloadStart: number;
  end: number;
}

class Reader {
  pos = 0;
  constructor(readonly bytes: Uint8Array) {}
  done(): boolean {
    return this.pos === this.bytes.length;
  }
  // Varints here are at most 64 bits; numbers above 2^53 only appear in payloads we copy, so
  // a lossy value is fine for them while every length and index we use stays exact.
  varint(): number | null {
    let value = 0;
    let scale = 1;
    for (let shift = 0; shift < 64; shift += 7) {
      if (this.pos >= this.bytes.length) return null;
      const b = this.bytes[this.pos++];
      value += (b & 0x7f) * scale;
      scale *= 128;
      if (!(b & 0x80)) return value;
    }
    return null;
  }
  take(n: number): Uint8Array | null {
    if (n > this.bytes.length - this.pos) return null;
    const out = this.bytes.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  lengthPrefixed(): Uint8Array | null {
    const n = this.varint();
    return n === null ? null : this.take(n);
  }
}

class Output {
  private chunks: Uint8Array[] = [];
  private size = 0;
  push(bytes: Uint8Array): void {
    this.chunks.push(bytes);
    this.size += bytes.length;
  }
  pushVarint(v: number): void {
    const out: number[] = [];
    while (v >= 0x80) {
      out.push((v % 128) | 0x80);
      v = Math.floor(v / 128);
    }
    out.push(v);
    this.push(Uint8Array.from(out));
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

// Splits a message into its top-level records; null on malformed input.
export function parseRecords(bytes: Uint8Array): Record[] | null {
  const r = new Reader(bytes);
  const out: Record[] = [];
  while (!r.done()) {
    const start = r.pos;
    const key = r.varint();
    if (key === null) return null;
    const field = Math.floor(key / 8);
    const wireType = key % 8;
    if (field === 0 || field > MAX_FIELD) return null;
    const tagEnd = r.pos;
    let payloadStart = tagEnd;
    switch (wireType) {
      case 0:
        if (r.varint() === null) return null;
        break;
      case 1:
        if (r.take(8) === null) return null;
        break;
      case 2: {
        const n = r.varint();
        payloadStart = r.pos;
        if (n === null || r.take(n) === null) return null;
        break;
      }
      case 5:
        if (r.take(4) === null) return null;
        break;
      default:
        return null; // groups are not used by proto3 views; 6 and 7 are invalid
    }
    out.push({ field, wireType, start, tagEnd, payloadStart, end: r.pos });
  }
  return out;
}

function parseGrouped(bytes: Uint8Array): Record[] | null {
  const records = parseRecords(bytes);
  if (records === null) return null;
  for (let i = 1; i < records.length; ++i) {
    if (records[i].field < records[i - 1].field) return null;
  }
  return records;
}

function applyElements(
  r: Reader, base: Uint8Array, old: Record[], begin: number, end: number, depth: number,
  out: Output,
): boolean {
  const whole = (rec: Record) => base.subarray(rec.start, rec.end);
  const count = r.varint();
  if (count === null || count === 0 || count > end - begin) return false;
  let next = begin; // first old record of the field not yet written
  for (let k = 0; k < count; ++k) {
    const item = r.varint();
    const bytes = item === null ? null : r.lengthPrefixed();
    if (item === null || bytes === null) return false;
    const index = Math.floor(item / 2);
    if (index >= end - begin || begin + index < next) return false;
    for (; next < begin + index; ++next) out.push(whole(old[next]));
    const o = old[next++];
    if (item % 2 === 0) {
      out.push(bytes);
      continue;
    }
    if (o.wireType !== 2) return false;
    const payload = applyAt(base.subarray(o.payloadStart, o.end), bytes, depth + 1);
    if (payload === null) return false;
    out.push(base.subarray(o.start, o.tagEnd));
    out.pushVarint(payload.length);
    out.push(payload);
  }
  for (; next < end; ++next) out.push(whole(old[next]));
  return true;
}

function applyAt(before: Uint8Array, patch: Uint8Array, depth: number): Uint8Array | null {
  if (depth > MAX_DEPTH) return null;
  if (patch.length === 0) return before.slice();
  const r = new Reader(patch);
  let header = r.varint();
  if (header === null) return null;
  if (header === 0) {
    const whole = r.lengthPrefixed();
    return whole !== null && r.done() ? whole.slice() : null;
  }
  const old = parseGrouped(before);
  if (old === null) return null;
  const out = new Output();
  let idx = 0;
  let lastField = 0;
  for (;;) {
    const field = Math.floor(header / 4);
    const op = header % 4;
    if (field <= lastField || field > MAX_FIELD) return null;
    lastField = field;
    while (idx < old.length && old[idx].field < field) {
      out.push(before.subarray(old[idx].start, old[idx].end));
      ++idx;
    }
    const begin = idx;
    while (idx < old.length && old[idx].field === field) ++idx;
    if (op === OP_REPLACE) {
      const records = r.lengthPrefixed();
      if (records === null) return null;
      out.push(records);
    } else if (op === OP_ELEMENTS) {
      if (!applyElements(r, before, old, begin, idx, depth, out)) return null;
    } else if (op === OP_VARINT) {
      const at = r.pos;
      if (r.varint() === null) return null;
      out.pushVarint(field * 8); // the tag of wire type 0, written by the applier
      out.push(patch.subarray(at, r.pos));
    } else if (op !== OP_REMOVE) {
      return null; // unreachable while ops are two bits, kept for safety
    }
    if (r.done()) break;
    header = r.varint();
    if (header === null) return null;
  }
  for (; idx < old.length; ++idx) out.push(before.subarray(old[idx].start, old[idx].end));
  return out.bytes();
}

// The view after `patch`, or null when the patch is malformed or does not fit `before`.
export function applyPatch(before: Uint8Array, patch: Uint8Array): Uint8Array | null {
  return applyAt(before, patch, 0);
}
