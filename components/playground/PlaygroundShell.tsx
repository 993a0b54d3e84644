"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { decodeShare, isShareFragment, ShareLinkError } from "@/lib/share/share-codec";
import { offerSharedCollection } from "./collections/shared-collection";

/** A collection link's fragment (`#c1.…`, lib/collections/share-collection.ts), told apart without loading that code. */
const COLLECTION_FRAGMENT = /^#?c\d+\./;
import { handedOffRequest, loadConnection, loadHeaders } from "@/lib/playground/stores/session-store";
import { rememberServer } from "@/lib/playground/stores/recent-servers";
import {
  activeTab,
  applyAddress,
  closeTab,
  DEMO_SERVER,
  moveTab,
  openTab,
  pinnedEra,
  renameTab,
  reportTab,
  selectTab,
  serverShortName,
  setTabServer,
  tabAddress,
  tabTitle,
  type Address,
  type PlaygroundTab,
  type TabsState,
} from "@/lib/playground/stores/tabs-store";
import { Playground } from "./Playground";
import { ServerSwitcher } from "./ServerSwitcher";
import { TabStrip, tabDomId } from "./TabStrip";
import { tabsNow, updateTabs, useTabs } from "./useTabs";

interface Props {
  /** `?server=`: focus a pristine tab for it or open one. Absent: restore the tabs. */
  server?: string;
  /** `&tool=`: the tool whose call the new tab opens with. */
  tool?: string;
}

/** The address this page last wrote into this browser tab's address bar: seeing it again (a reload) restores, nothing more. */
const WRITTEN_KEY = "toolscope.playground-address.v1";
const PANEL_ID = "playground-tabpanel";
const KEPT_RESULT_NOTE = "The last result of this tab, kept in this browser; nothing was sent again. Press Send to run it anew.";

function subscribeHash(onChange: () => void): () => void {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
}

function here(): string {
  return window.location.pathname + window.location.search + window.location.hash;
}

function readWritten(): string | null {
  try {
    return sessionStorage.getItem(WRITTEN_KEY);
  } catch {
    return null;
  }
}

function writeAddress(href: string): void {
  if (here() !== href) window.history.replaceState(window.history.state, "", href);
  try {
    sessionStorage.setItem(WRITTEN_KEY, href);
  } catch {
    // Without sessionStorage a reload of a ?server= address opens a tab again (it never overwrites one): acceptable.
  }
}

const newId = () => crypto.randomUUID();

const setTabs = (f: (s: TabsState) => TabsState) => updateTabs((v) => ({ tabs: f(v.tabs) }));

function openNew(init: Omit<PlaygroundTab, "id">): void {
  updateTabs((v) => {
    const r = openTab(v.tabs, newId(), init);
    return { tabs: r.state, notice: r.error ?? null };
  });
}

/**
 * A new tab on the active tab's server (the demo when there is none). Its era is not copied: a pinned era reaches the
 * playground with the tab's text, which a new tab has only once it connected (useConnection reuses the remembered
 * connection either way).
 */
function newTab(): void {
  openNew({ server: activeTab(tabsNow())?.server ?? DEMO_SERVER });
}

const reporters = new Map<string, (text: string, response: unknown) => void>();
/**
 * What a tab's playground calls with its text and last result: one function per tab and server (a stable identity, so
 * the playground's effect runs on real changes only). Its first call is a use of the server, for the recent servers
 * (header names, never values).
 */
function reporterFor(tab: PlaygroundTab): (text: string, response: unknown) => void {
  const key = `${tab.id}|${tab.server}|${tab.era ?? ""}`;
  const known = reporters.get(key);
  if (known) return known;
  const { id, server, era } = tab;
  let remembered = false;
  const report = (text: string, response: unknown) => {
    // null: an exchange with no round yet (the call is on its way), so no result to keep.
    setTabs((s) => reportTab(s, id, text, response === null ? undefined : response));
    if (remembered) return;
    remembered = true;
    const info = loadConnection(server)?.server.serverInfo;
    rememberServer(globalThis.localStorage, {
      url: server,
      era: era ?? "auto",
      name: info?.title ?? info?.name,
      headers: loadHeaders(server),
    });
  };
  reporters.set(key, report);
  return report;
}

/**
 * The active tab's playground. What it starts from is taken once per mount: the playground reads `initial` only when it
 * mounts, and an `initial.response` that changed with each of its own reports would make it report again, endlessly.
 * The tool stays after the first report: the editor's default text is computed from it until edited.
 */
function TabPlayground({ tab, fromShareLink }: { tab: PlaygroundTab; fromShareLink: boolean }) {
  const [initial] = useState(() =>
    tab.text === undefined
      ? undefined
      : {
          era: pinnedEra(tab),
          request: tab.text,
          ...(tab.response !== undefined ? { response: tab.response, ...(fromShareLink ? {} : { responseNote: KEPT_RESULT_NOTE }) } : {}),
        },
  );
  return <Playground server={tab.server} tool={tab.tool} {...(initial ? { initial } : {})} onTabState={reporterFor(tab)} />;
}

/**
 * The playground page island: request tabs (kept in this browser), each a playground on its own server. The address
 * opens tabs (tabs-store.ts `applyAddress`: a share link `#v1.…` or `?server=` never overwrites a tab's text) and then
 * follows the active tab, so a reload or a copied link means the same thing. Only the active tab's playground is
 * mounted; the others live on as the text and last result it reported.
 */
export function PlaygroundShell({ server, tool }: Props) {
  const hash = useSyncExternalStore(
    subscribeHash,
    () => window.location.hash,
    () => null,
  );
  const view = useTabs();

  // Apply the address: on arrival, and when it changes (a share link, `?server=` from a link on this page). An address
  // this page wrote itself (a reload) restores.
  useEffect(() => {
    if (hash === null) return;
    const href = here();
    let address: Address = { kind: "restore" };
    // undefined: the address is this page's own (a reload), so whatever was said about a share link stands.
    let shareError: string | null | undefined;
    if (href !== readWritten()) {
      shareError = null;
      if (hash && COLLECTION_FRAGMENT.test(hash)) {
        // A collection link opens the server's playground with the collection in its Tests panel. The collections
        // code (the format's schema and checks) loads only for such a link, not with every playground.
        void import("@/lib/collections").then(
          ({ decodeCollectionShare }) => {
            let opened: Address = { kind: "restore" };
            let error: string | null = null;
            try {
              const collection = decodeCollectionShare(hash);
              const target = server ?? collection.environment?.server ?? DEMO_SERVER;
              offerSharedCollection(target, collection);
              opened = { kind: "server", server: target };
            } catch (err) {
              error = err instanceof Error ? err.message : String(err);
            }
            const openedId = newId();
            updateTabs((v) => {
              const r = applyAddress(v.tabs, opened, openedId);
              return { tabs: r.state, ...(r.error ? { notice: r.error } : {}), shareError: error };
            });
          },
          () => updateTabs(() => ({ shareError: "a part of the page could not be loaded; reload it to try again." })),
        );
        return;
      } else if (hash && isShareFragment(hash)) {
        try {
          address = { kind: "share", ...decodeShare(hash) };
        } catch (err) {
          shareError = err instanceof ShareLinkError ? err.message : String(err);
        }
      } else if (server) {
        // A request handed off for this server (history replay to a stdio server) opens in a tab of its own, as a
        // share link would: a pristine tab's text would otherwise win over it.
        const handed = handedOffRequest(server);
        address = handed === undefined ? { kind: "server", server, ...(tool ? { tool } : {}) } : { kind: "share", server, request: handed };
      }
    }
    const id = newId();
    const share = address.kind === "share" && hash && isShareFragment(hash) ? address : null;
    updateTabs((v) => {
      const r = applyAddress(v.tabs, address, id);
      return {
        tabs: r.state,
        ...(r.error ? { notice: r.error } : {}),
        ...(shareError !== undefined ? { shareError } : {}),
        ...(share && !r.error ? { shared: { id, href, server: share.server, ...(share.era ? { era: share.era } : {}) } } : {}),
      };
    });
  }, [hash, server, tool]);

  const active = view ? activeTab(view.tabs) : undefined;
  const shared = view?.shared;

  // The address bar follows the active tab (a share link stays while its tab is the active one).
  useEffect(() => {
    if (!active) return;
    writeAddress(shared?.id === active.id && here() === shared.href ? shared.href : tabAddress(active));
  }, [active, shared]);

  // Alt+Shift+T opens a tab anywhere on the page (by key position: on a Mac, Alt+Shift+T types a character).
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && e.shiftKey && !e.ctrlKey && !e.metaKey && e.code === "KeyT" && !document.querySelector("dialog[open]")) {
        e.preventDefault();
        newTab();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, []);

  if (hash === null || !view)
    return (
      <p className="text-sm text-zinc-500" data-testid="playground-loading">
        Loading the playground…
      </p>
    );

  const { tabs, notice, shareError, generation } = view;
  return (
    <div className="space-y-3">
      {shareError && (
        <p
          role="alert"
          data-testid="share-error"
          className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200"
        >
          This share link could not be opened: {shareError}
        </p>
      )}
      <TabStrip
        tabs={tabs.tabs.map((t) => ({ id: t.id, title: tabTitle(t), hint: t.server }))}
        activeId={tabs.activeId}
        panelId={PANEL_ID}
        onSelect={(id) => setTabs((s) => selectTab(s, id))}
        onClose={(id) => updateTabs((v) => ({ tabs: closeTab(v.tabs, id), notice: null }))}
        onNew={newTab}
        onRename={(id, name) => setTabs((s) => renameTab(s, id, name))}
        onMove={(id, delta) => setTabs((s) => moveTab(s, id, delta))}
      />
      {notice && (
        <p role="status" data-testid="tabs-notice" className="text-sm text-amber-800 dark:text-amber-300">
          {notice}
        </p>
      )}
      {active ? (
        <div role="tabpanel" id={PANEL_ID} aria-labelledby={tabDomId(active.id)} className="space-y-3">
          <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
            <ServerSwitcher
              server={active.server}
              era={active.era}
              onSwitch={(to) =>
                updateTabs((v) => ({ tabs: setTabServer(v.tabs, active.id, to.server, to.era), generation: v.generation + 1 }))
              }
            />
            {shared?.id === active.id && (
              <p className="min-w-0 text-xs text-zinc-500 dark:text-zinc-400" data-testid="share-banner">
                Opened from a share link: <span className="font-mono">{shared.server}</span>
                {shared.era ? ` (${shared.era})` : ""}. Nothing has been sent.
              </p>
            )}
            {active.responseNote && (
              <p className="min-w-0 text-xs text-zinc-500 dark:text-zinc-400" data-testid="tab-result-note">
                The last result of this tab was not kept: {active.responseNote}. Press Send to run it again.
              </p>
            )}
          </div>
          <TabPlayground
            key={`${active.id}|${active.server}|${active.era ?? ""}|${active.tool ?? ""}|${generation}`}
            tab={active}
            fromShareLink={shared?.id === active.id}
          />
        </div>
      ) : (
        <div role="tabpanel" id={PANEL_ID} className="rounded-md border border-dashed border-zinc-300 p-6 text-sm dark:border-zinc-700">
          <p>No request tabs are open.</p>
          <button
            type="button"
            onClick={newTab}
            className="mt-2 rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700"
          >
            New tab on the {serverShortName(DEMO_SERVER)}
          </button>
        </div>
      )}
    </div>
  );
}
