// Applies a Duelhall view patch (docs/protocol.md, "The diff format") in the browser or Node:
// the JavaScript twin of wire::apply_patch in wire_diff.cpp. Works on Uint8Arrays; throws on a
// malformed patch (then ask the server for a snapshot with Resync).

function readVarint(bytes, at) {
  let value = 0n;
  let shift = 0n;
  for (;;) {
    if (at >= bytes.length) throw new Error('truncated varint');
    const b = bytes[at++];
    value |= BigInt(b & 0x7f) << shift;
    if (!(b & 0x80)) return [value, at];
    shift += 7n;
    if (shift > 63n) throw new Error('varint too long');
  }
}

function writeVarint(out, value) {
  let v = BigInt(value);
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
}

// Splits a message into records: {field, wireType, start, tagEnd, payloadStart, end}.
function splitRecords(bytes) {
  const records = [];
  let at = 0;
  while (at < bytes.length) {
    const start = at;
    let key;
    [key, at] = readVarint(bytes, at);
    const field = Number(key >> 3n);
    const wireType = Number(key & 7n);
    const tagEnd = at;
    let payloadStart = at;
    if (wireType === 0) [, at] = readVarint(bytes, at);
    else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else if (wireType === 2) {
      let len;
      [len, payloadStart] = readVarint(bytes, at);
      at = payloadStart + Number(len);
    } else throw new Error('unsupported wire type');
    if (field === 0 || at > bytes.length) throw new Error('bad record');
    if (records.length && field < records[records.length - 1].field) throw new Error('not grouped');
    records.push({field, wireType, start, tagEnd, payloadStart, end: at});
  }
  return records;
}

export function applyPatch(before, patch, depth = 0) {
  if (depth > 16) throw new Error('patch nested too deep');
  if (patch.length === 0) return before;
  let [header, at] = readVarint(patch, 0);
  if (header === 0n) {
    const [len, from] = readVarint(patch, at);
    if (from + Number(len) !== patch.length) throw new Error('bad whole replacement');
    return patch.slice(from);
  }
  const old = splitRecords(before);
  const out = [];
  const copy = (r) => out.push(...before.subarray(r.start, r.end));
  let idx = 0;
  let lastField = 0;
  for (;;) {
    const field = Number(header >> 2n);
    const op = Number(header & 3n);
    if (field <= lastField) throw new Error('fields out of order');
    lastField = field;
    while (idx < old.length && old[idx].field < field) copy(old[idx++]);
    const begin = idx;
    while (idx < old.length && old[idx].field === field) idx++;
    if (op === 0) {  // REPLACE
      let len;
      [len, at] = readVarint(patch, at);
      out.push(...patch.subarray(at, at + Number(len)));
      at += Number(len);
    } else if (op === 1) {  // ELEMENTS
      let count;
      [count, at] = readVarint(patch, at);
      let next = begin;
      for (let k = 0n; k < count; k++) {
        let item, len;
        [item, at] = readVarint(patch, at);
        [len, at] = readVarint(patch, at);
        const bytes = patch.subarray(at, at + Number(len));
        at += Number(len);
        const index = begin + Number(item >> 1n);
        if (index >= idx || index < next) throw new Error('bad element index');
        while (next < index) copy(old[next++]);
        const o = old[next++];
        if (!(item & 1n)) {
          out.push(...bytes);
        } else {
          if (o.wireType !== 2) throw new Error('nested patch on a scalar');
          const payload = applyPatch(before.subarray(o.payloadStart, o.end), bytes, depth + 1);
          out.push(...before.subarray(o.start, o.tagEnd));
          writeVarint(out, payload.length);
          out.push(...payload);
        }
      }
      while (next < idx) copy(old[next++]);
    } else if (op === 2) {  // VARINT
      const from = at;
      [, at] = readVarint(patch, at);
      writeVarint(out, BigInt(field) << 3n);
      out.push(...patch.subarray(from, at));
    }  // op 3, REMOVE: the old records are dropped
    if (at > patch.length) throw new Error('truncated patch');
    if (at === patch.length) break;
    [header, at] = readVarint(patch, at);
  }
  while (idx < old.length) copy(old[idx++]);
  return Uint8Array.from(out);
}
