// Finds a ruleset's View message among the types generated from proto/ at build time, by the
// fully qualified name the server announces (RulesetInfo.view_message). A ruleset whose proto
// file is not in this build still plays: its screen falls back to the generic one.
import { fromBinary, toJson, type DescMessage } from "@bufbuild/protobuf";

const generated = import.meta.glob("./gen/*_pb.ts", { eager: true }) as Record<
  string,
  Record<string, unknown>
>;

const schemas = new Map<string, DescMessage>();
for (const mod of Object.values(generated)) {
  for (const value of Object.values(mod)) {
    const desc = value as DescMessage;
    if (desc && typeof desc === "object" && desc.kind === "message") {
      schemas.set(desc.typeName, desc);
    }
  }
}

export function viewSchema(typeName: string): DescMessage | undefined {
  return schemas.get(typeName);
}

// The decoded view as a plain message object, or undefined when the type is unknown here or
// the bytes do not parse.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyView = any;
export function decodeView(typeName: string, bytes: Uint8Array): AnyView | undefined {
  const schema = schemas.get(typeName);
  if (!schema) return undefined;
  try {
    return fromBinary(schema, bytes);
  } catch {
    return undefined;
  }
}

export function viewAsJson(typeName: string, view: AnyView): unknown {
  const schema = schemas.get(typeName);
  return schema ? toJson(schema, view, { alwaysEmitImplicit: false }) : undefined;
}
