/** Pure helpers that keep rendered tool descriptions safe: link schemes, image sources, raw HTML. */

/** Schemes a rendered description may link to. */
export const SAFE_LINK_SCHEMES = ["http:", "https:", "mailto:"] as const;

/** `url` when it is an absolute http/https/mailto URL, else undefined (relative, javascript:, data:, …). */
export function safeHref(url: unknown): string | undefined {
  if (typeof url !== "string") return undefined;
  const trimmed = url.trim();
  // Reject control characters and whitespace tricks before parsing ("java\tscript:").
  if (trimmed === "" || /[\u0000-\u001f\u007f]/.test(trimmed)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return undefined;
  }
  if (!(SAFE_LINK_SCHEMES as readonly string[]).includes(parsed.protocol)) return undefined;
  if (parsed.protocol !== "mailto:" && !parsed.hostname) return undefined;
  return parsed.href;
}

/** True for icon sources we are willing to load: https: URLs and data:image/… URIs. */
export function isSafeImageSrc(src: unknown): src is string {
  if (typeof src !== "string") return false;
  const s = src.trim();
  if (/^data:image\/[a-z0-9.+-]+(;[a-z0-9=.+-]+)*(;base64)?,/i.test(s)) return true;
  try {
    const u = new URL(s);
    return u.protocol === "https:" && u.hostname !== "";
  } catch {
    return false;
  }
}

interface TreeNode {
  type: string;
  value?: unknown;
  children?: TreeNode[];
}

/**
 * A remark plugin: raw HTML in Markdown (`<!-- … -->`, `<IMPORTANT>`) becomes literal text instead of being
 * dropped, so people see exactly what the model is sent — hidden comments included.
 */
export function remarkHtmlAsText() {
  return (tree: TreeNode): void => {
    const stack: TreeNode[] = [tree];
    while (stack.length > 0) {
      const node = stack.pop()!;
      if (node.type === "html") node.type = "text";
      if (Array.isArray(node.children)) stack.push(...node.children);
    }
  };
}
