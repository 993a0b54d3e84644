/**
 * Benchmark: how soon the playground's request editor takes typing, and what the playground, the docs and the home
 * page cost in JavaScript.
 *
 *   node --import tsx scripts/bench/playground.ts http://127.0.0.1:PORT [--runs 3] [--docs /docs]
 *
 * Against a production build (`next start` or scripts/server.mjs). Every run is a fresh browser context, so the HTTP
 * cache is cold each time. The server is not: one untimed view comes first, because a server that just started loads
 * the page's and the API routes' modules on their first request (a hosted instance does that once, not per visitor;
 * on this machine it put 0.2–0.4 s into whichever view came first).
 *
 * - readyMs: from navigation start (the page's performance.timeOrigin) until one typed character is in the editor's
 *   text: the plain textarea's value while Monaco is on its way, or Monaco's lines once it is there, as noted inside
 *   the page when it happens (PROBE_WATCH). As soon as either is on the page (watched from inside it, every frame), a
 *   mouse click lands on it and one key follows, so the figure includes Playwright's round trips for the click and the
 *   key and any wait for a busy main thread, as a person's click would.
 * - Byte figures are the page's scripts only (CDP resource type "Script"; workers load in their own targets and are
 *   not counted). "gzip" is the body as the server sent it: CDP Network.loadingFinished.encodedDataLength less the
 *   response head's bytes (responseReceived's encodedDataLength). When a response came uncompressed, the body is
 *   gzipped here (zlib level 6, what `next start`'s compression uses) so the figure still means gzip. "raw" is the
 *   decoded body. fontBytes is what came over the wire for fonts (woff2 is compressed already).
 * - docsLoadsMonaco: whether any script of the docs page carries Monaco (see MONACO_MARKERS).
 */
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type CDPSession, type Page } from "playwright-core";
import { findChromium } from "../ensure-browser.mjs";

export interface PlaygroundFigures {
  readyMs: number[];
  jsGzipBytes: number;
  jsRawBytes: number;
  largestChunkGzipBytes: number;
  largestChunkName: string;
  fontBytes: number;
  docsLoadsMonaco: boolean;
  homeJsGzipBytes: number;
}

/** A script or font the page loaded. */
interface Loaded {
  url: string;
  type: string;
  gzipBytes: number;
  rawBytes: number;
  body: Buffer | null;
}

const EDITOR = '[data-testid="request-editor"]';
/** The plain textarea stage (any textarea in the editor box that is not Monaco's own) or Monaco's lines. */
const TYPING_TARGET = `${EDITOR} textarea:not(.monaco-editor *), ${EDITOR} .monaco-editor .view-lines`;
/** A character no request template contains, so finding it means this keystroke arrived. */
const PROBE = "§";
/**
 * Strings only Monaco's code carries, whatever the minifier did: the global it reads its environment from, and ids of
 * its core editor commands. The playground's own code names neither (it only knows the `.monaco-editor` class).
 */
/** Where the page notes the moment the probe first is in the editor's text. */
const PROBE_AT_KEY = "__toolscopeProbeAt";
/**
 * Notes, inside the page, when the probe first is in the editor's text: the plain textarea's value (its input event)
 * or Monaco's rendered lines (a DOM change). Read afterwards, so the figure is that moment and not the moment a poll
 * from outside got round to seeing it (Playwright's round trips on this busy 2-core machine took 50–150 ms).
 */
const PROBE_WATCH = `(() => {
  const editor = ${JSON.stringify(EDITOR)}, probe = ${JSON.stringify(PROBE)}, key = ${JSON.stringify(PROBE_AT_KEY)};
  const note = () => { if (window[key] === undefined) window[key] = performance.now(); };
  const check = () => {
    const box = document.querySelector(editor);
    if (!box) return;
    for (const ta of box.querySelectorAll("textarea")) {
      if (!ta.closest(".monaco-editor") && ta.value.includes(probe)) return note();
    }
    const lines = box.querySelector(".monaco-editor .view-lines");
    if (lines && lines.textContent.includes(probe)) note();
  };
  document.addEventListener("input", check, true);
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
})();`;
const MONACO_MARKERS = ["MonacoEnvironment", "editor.action.triggerSuggest", "vs.editor.ICodeEditor"];

/**
 * Records the page's scripts and fonts over CDP until `collect()` is called. Bodies are fetched only when `withBodies`
 * (the Monaco check needs them).
 */
async function recordLoads(page: Page, withBodies: boolean) {
  const cdp: CDPSession = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  const meta = new Map<string, { url: string; type: string; headBytes: number; encoding: string }>();
  const raw = new Map<string, number>();
  const pending: Promise<Loaded | null>[] = [];
  cdp.on("Network.responseReceived", (e) => {
    if (e.type !== "Script" && e.type !== "Font") return;
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    meta.set(e.requestId, {
      url: e.response.url,
      type: e.type,
      headBytes: e.response.encodedDataLength,
      encoding: headers["content-encoding"] ?? "",
    });
  });
  cdp.on("Network.dataReceived", (e) => {
    if (meta.has(e.requestId)) raw.set(e.requestId, (raw.get(e.requestId) ?? 0) + e.dataLength);
  });
  cdp.on("Network.loadingFinished", (e) => {
    const m = meta.get(e.requestId);
    if (!m) return;
    const wire = Math.max(0, e.encodedDataLength - m.headBytes);
    const compressed = /gzip|br|deflate|zstd/.test(m.encoding);
    const needBody = withBodies || (!compressed && m.type === "Script");
    pending.push(
      (needBody
        ? cdp
            .send("Network.getResponseBody", { requestId: e.requestId })
            .then((r) => Buffer.from(r.body, r.base64Encoded ? "base64" : "utf8"))
            .catch(() => null)
        : Promise.resolve(null)
      ).then((body) => ({
        url: m.url,
        type: m.type,
        gzipBytes: compressed || m.type !== "Script" ? wire : body ? gzipSync(body, { level: 6 }).length : wire,
        rawBytes: body?.length ?? raw.get(e.requestId) ?? wire,
        body,
      })),
    );
  });
  return {
    async collect(): Promise<Loaded[]> {
      const loaded = (await Promise.all(pending)).filter((l): l is Loaded => l !== null);
      await cdp.detach().catch(() => {});
      return loaded;
    },
  };
}

/** Milliseconds from navigation start until a typed character is in the editor's value. */
async function timeToTyping(page: Page, url: string): Promise<number> {
  await page.addInitScript(PROBE_WATCH);
  await page.goto(url, { waitUntil: "commit" });
  // Where a person would click, as soon as the editor is on the page, watched from inside the page on every animation
  // frame. (A locator wait is polled from outside on Playwright's back-off schedule, 500 ms apart after the first
  // second, which alone put up to half a second into the figure.) Visible only: while the textarea hands over, Monaco
  // is already in the page but hidden under it.
  const spot = await page.waitForFunction(
    (selector) => {
      for (const el of document.querySelectorAll(selector)) {
        if (!el.checkVisibility()) continue;
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0) return { x: r.x + Math.min(r.width / 2, 200), y: r.y + Math.min(r.height / 2, 40) };
      }
      return false;
    },
    TYPING_TARGET,
    { polling: "raf", timeout: 60_000 },
  );
  const { x, y } = (await spot.jsonValue()) as { x: number; y: number };
  // A plain mouse click there, queued like a person's (locator.click() would first wait for the element to hold still
  // over two animation frames, which a busy main thread stretches), then one key. The textarea and Monaco share the
  // box, so the click lands on whichever holds it by then.
  await page.mouse.click(x, y);
  await page.keyboard.type(PROBE);
  const handle = await page.waitForFunction(
    (key) => (window as unknown as Record<string, number | undefined>)[key] ?? false,
    PROBE_AT_KEY,
    {
      polling: "raf",
      timeout: 30_000,
    },
  );
  return Math.round((await handle.jsonValue()) as number);
}

/** Scripts loaded by `path` in a fresh context, after the page settled. */
async function loadPage(browser: Browser, appUrl: string, path: string, settle: (page: Page) => Promise<void>, withBodies: boolean) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    const rec = await recordLoads(page, withBodies);
    await page.goto(new URL(path, appUrl).href, { waitUntil: "load" });
    await settle(page);
    return await rec.collect();
  } finally {
    await context.close();
  }
}

function hasMonaco(l: Loaded): boolean {
  if (/monaco/i.test(l.url)) return true;
  const text = l.body?.toString("utf8") ?? "";
  return MONACO_MARKERS.some((m) => text.includes(m));
}

const sum = (xs: Loaded[], f: (l: Loaded) => number) => xs.reduce((n, l) => n + f(l), 0);

export async function measurePlayground(appUrl: string, options: { runs?: number; docsPath?: string } = {}): Promise<PlaygroundFigures> {
  const runs = options.runs ?? 3;
  const docsPath = options.docsPath ?? "/docs";
  const browser = await chromium.launch({
    executablePath: findChromium() ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
    headless: true,
  });
  try {
    const readyMs: number[] = [];
    let playground: Loaded[] = [];
    const warmUp = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await timeToTyping(await warmUp.newPage(), new URL("/playground", appUrl).href).finally(() => warmUp.close());
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      try {
        const page = await context.newPage();
        const rec = await recordLoads(page, false);
        readyMs.push(await timeToTyping(page, new URL("/playground", appUrl).href));
        // The weight is the whole editor's: wait for Monaco, then for the last chunks to finish.
        await page.locator(`${EDITOR} .monaco-editor`).waitFor({ timeout: 60_000 });
        await page.waitForLoadState("load");
        await page.waitForTimeout(1_000);
        const loaded = await rec.collect();
        if (i === 0) playground = loaded;
      } finally {
        await context.close();
      }
    }
    const scripts = playground.filter((l) => l.type === "Script");
    const largest = scripts.reduce<Loaded | null>((a, b) => (a && a.gzipBytes >= b.gzipBytes ? a : b), null);

    // Docs and home: not "networkidle" (the docs keep a live-updates stream open); a second after load every script is in.
    const settle = (page: Page) => page.waitForTimeout(1_000);
    const docs = await loadPage(browser, appUrl, docsPath, settle, true);
    const home = await loadPage(browser, appUrl, "/", settle, false);

    return {
      readyMs,
      jsGzipBytes: sum(scripts, (l) => l.gzipBytes),
      jsRawBytes: sum(scripts, (l) => l.rawBytes),
      largestChunkGzipBytes: largest?.gzipBytes ?? 0,
      largestChunkName: largest ? new URL(largest.url).pathname : "",
      fontBytes: sum(
        playground.filter((l) => l.type === "Font"),
        (l) => l.gzipBytes,
      ),
      docsLoadsMonaco: docs.filter((l) => l.type === "Script").some(hasMonaco),
      homeJsGzipBytes: sum(
        home.filter((l) => l.type === "Script"),
        (l) => l.gzipBytes,
      ),
    };
  } finally {
    await browser.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const appUrl = args.find((a) => /^https?:\/\//.test(a));
  if (!appUrl) {
    console.error("usage: node --import tsx scripts/bench/playground.ts http://127.0.0.1:PORT [--runs 3] [--docs /docs]");
    process.exit(2);
  }
  const figures = await measurePlayground(appUrl, { runs: Number(flag("--runs") ?? 3), docsPath: flag("--docs") });
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  console.log(JSON.stringify(figures, null, 2));
  console.log(
    `ready ${figures.readyMs.join(" / ")} ms; JS ${kb(figures.jsGzipBytes)} gz (${kb(figures.jsRawBytes)} raw); largest chunk ` +
      `${kb(figures.largestChunkGzipBytes)} gz (${figures.largestChunkName}); fonts ${kb(figures.fontBytes)}; ` +
      `docs load Monaco: ${figures.docsLoadsMonaco ? "yes" : "no"}; home JS ${kb(figures.homeJsGzipBytes)} gz`,
  );
}
