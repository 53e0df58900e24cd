// axe-core over a page (WCAG 2.2 A and AA rules and axe's best practices): any serious or
// critical violation fails, and so does any violation of the rules the client was once caught
// on (a label on a plain div, content outside landmarks, no h1, skipped heading levels, a page
// without a title), whatever axe rates them.
import { AxeBuilder } from "@axe-core/playwright";

const ALWAYS_FAIL = new Set(["aria-prohibited-attr", "region", "page-has-heading-one", "heading-order",
  "document-title", "landmark-one-main", "meta-viewport"]);

export async function checkAxe(page, what) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  const failing = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical" || ALWAYS_FAIL.has(v.id));
  const minor = results.violations.filter((v) => !failing.includes(v)).map((v) => `${v.id} (${v.impact})`);
  console.log(`     axe on ${what}: ${results.passes.length} rules pass, ${failing.length} failing` +
    (minor.length ? `, minor: ${minor.join(", ")}` : ""));
  if (failing.length) {
    const detail = failing.map((v) => `${v.id} (${v.impact}): ${v.help}; at ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
    throw new Error(`axe on ${what}:\n  ${detail.join("\n  ")}`);
  }
}
