/**
 * The relay page between the host and an MCP App's view (ext-apps specification 2026-01-26, "Sandbox proxy"). The
 * host frames it with `sandbox="allow-scripts"`, so it runs at an opaque origin: a different origin from the host's,
 * as the specification requires, on any host name, port, tunnel or TLS terminator. It makes the view's frame once,
 * from the document the host sent (`ui/notifications/sandbox-resource-ready`), always with its own fixed sandbox
 * flags (never allow-same-origin, popups, top navigation, modals or downloads) whatever the message asks, and then
 * passes messages between the host (its parent) and the view (its child), nothing else. Pure: the route serves it.
 */

/** The view frame's sandbox flags: scripts and forms, at an opaque origin of its own. */
export const VIEW_SANDBOX = "allow-scripts allow-forms";

/** The relay frame's sandbox flags, set by the host on its iframe: an opaque origin, on Toolscope's own host. */
export const RELAY_SANDBOX = "allow-scripts";
/**
 * The relay frame's flags on a sandbox origin of its own (TOOLSCOPE_SANDBOX_ORIGIN): there it keeps that origin, as
 * the specification's sandbox proxy does; the view inside stays opaque either way.
 */
export const RELAY_SANDBOX_OWN_ORIGIN = "allow-scripts allow-same-origin";
/** The relay's path, on Toolscope's host or the sandbox origin's. */
export const APP_RELAY_PATH = "/api/apps/sandbox";
/** The page's `<meta>` naming the sandbox origin, when one is configured. */
export const APP_RELAY_META = "toolscope-app-sandbox-origin";

/** Where the host frames the relay from, and with which flags, given the configured sandbox origin (if any). */
export function relayFrame(sandboxOrigin: string | null | undefined): { src: string; sandbox: string; origin: string } {
  return sandboxOrigin
    ? { src: `${sandboxOrigin}${APP_RELAY_PATH}`, sandbox: RELAY_SANDBOX_OWN_ORIGIN, origin: sandboxOrigin }
    : { src: APP_RELAY_PATH, sandbox: RELAY_SANDBOX, origin: "null" };
}

/** The relay's only policy: who may frame it (the host's pages). Nothing else, so the view's own policy decides the rest. */
export function relayPolicy(ancestors: readonly string[]): string {
  return `frame-ancestors ${["'self'", ...ancestors].join(" ")}`;
}

const SCRIPT = `(() => {
  const host = window.parent;
  let view = null;
  const ready = (m) => m && m.jsonrpc === "2.0" && m.method === "ui/notifications/sandbox-resource-ready";
  window.addEventListener("message", (event) => {
    if (event.source === host) {
      if (ready(event.data)) {
        const html = event.data.params && event.data.params.html;
        if (view || typeof html !== "string") return;
        view = document.createElement("iframe");
        view.setAttribute("sandbox", ${JSON.stringify(VIEW_SANDBOX)});
        view.setAttribute("referrerpolicy", "no-referrer");
        view.setAttribute("title", "MCP App view");
        view.srcdoc = html;
        document.body.appendChild(view);
      } else if (view && view.contentWindow) {
        view.contentWindow.postMessage(event.data, "*");
      }
    } else if (view && event.source === view.contentWindow) {
      host.postMessage(event.data, "*");
    }
  });
  host.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, "*");
})();`;

/**
 * The relay page. The view's frame is painted white, as a browser tab is: a view that paints no background of its own
 * stays readable on a dark host page (its text is the browser's default black); views that follow the host's theme
 * paint their own.
 */
export const RELAY_HTML = `<!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>MCP App sandbox</title><style>html,body{margin:0;height:100%;overflow:hidden;background:transparent}iframe{border:0;width:100%;height:100%;display:block;background:#fff}</style></head><body><script>${SCRIPT}</script></body></html>`;
