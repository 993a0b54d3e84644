/** Group tool names by a shared namespace prefix (github_…, jira.…, a-b-…), for long tool lists. */

export interface NamespaceGroup {
  /** The shared prefix including its separator (e.g. "github_"), or null for the ungrouped rest. */
  prefix: string | null;
  /** The prefix without its separator, or "Other" / "All tools". */
  label: string;
  names: string[];
}

/** Separators that end a namespace segment. */
const SEPARATORS = /[._\-/:]/;
/** Leading verbs are actions, not namespaces: get_user and get_issue are not a "get" namespace. */
const VERBS = new Set([
  "get",
  "list",
  "create",
  "update",
  "delete",
  "remove",
  "add",
  "set",
  "search",
  "find",
  "fetch",
  "read",
  "write",
  "run",
  "execute",
  "exec",
  "query",
  "send",
  "post",
  "put",
  "patch",
  "make",
  "new",
  "edit",
  "open",
  "close",
  "start",
  "stop",
  "check",
  "validate",
  "generate",
  "upload",
  "download",
  "move",
  "copy",
  "rename",
  "show",
  "describe",
  // Seen on published servers (issue 26: server-everything's toggle-… and trigger-… became "namespaces").
  "toggle",
  "trigger",
  "enable",
  "disable",
  "subscribe",
  "unsubscribe",
  "invoke",
  "call",
  "reset",
  "refresh",
  "sync",
  "clear",
  "cancel",
  "submit",
  "assign",
  "merge",
  "publish",
  "deploy",
  "render",
  "export",
  "import",
  "load",
  "save",
  "print",
  "convert",
  "summarize",
  "calculate",
]);

/** Namespaces with at least this many tools get a group: one rule for the docs pages and the playground's explorer. */
export const MIN_GROUP_SIZE = 2;

/** The namespace prefix of one name (first segment + separator), or undefined. */
export function namespacePrefix(name: string): string | undefined {
  const m = SEPARATORS.exec(name);
  if (!m || m.index === 0 || m.index === name.length - 1) return undefined;
  const head = name.slice(0, m.index);
  if (VERBS.has(head.toLowerCase())) return undefined;
  return name.slice(0, m.index + 1);
}

/**
 * Group names by namespace prefix, keeping first-appearance order. A prefix becomes a group only when at
 * least `minGroupSize` (default 2) names share it; the rest go to a final group with prefix null. With no
 * shared prefix at all, the result is a single group of every name.
 */
export function groupByNamespace(names: string[], minGroupSize = MIN_GROUP_SIZE): NamespaceGroup[] {
  const counts = new Map<string, number>();
  for (const name of names) {
    const p = namespacePrefix(name);
    if (p) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  const groups = new Map<string, NamespaceGroup>();
  const rest: string[] = [];
  for (const name of names) {
    const p = namespacePrefix(name);
    if (p && (counts.get(p) ?? 0) >= minGroupSize) {
      if (!groups.has(p)) groups.set(p, { prefix: p, label: p.slice(0, -1), names: [] });
      groups.get(p)!.names.push(name);
    } else rest.push(name);
  }
  if (groups.size === 0) return [{ prefix: null, label: "All tools", names: [...names] }];
  const out = [...groups.values()];
  if (rest.length > 0) out.push({ prefix: null, label: "Other", names: rest });
  return out;
}
