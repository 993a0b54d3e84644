"use client";

import { createElement, useEffect, useState, type ComponentType, type ReactNode } from "react";
import { ToolExplorerPending } from "./explorer/ToolExplorerPending";

/**
 * The playground's parts that are not on screen when it opens: dialogs, panels behind a button, and what needs the
 * connection (the explorer, the arguments form, the send preview, the result). Each is its own chunk, so the first
 * render (the editor) evaluates none of their code (issue 15: the editor takes typing ≤ 1 s after navigation);
 * {@link preloadPanels} fetches them all at the page's first quiet moment.
 *
 * Not React.lazy: a lazy component suspends on its first render even when its chunk is in, and React reveals
 * suspended content up to 300 ms later, so a dialog opened by a key (Ctrl/Cmd+K) missed the keys typed right after.
 * A part whose chunk is in renders at once; before that, its fallback (or nothing) until the chunk arrives.
 */
/** Every part made here, for {@link preloadPanels}. */
const preloads: (() => Promise<unknown>)[] = [];

function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>, fallback?: (props: P) => ReactNode): ComponentType<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  // A failed fetch (offline, a new deployment) is tried again by the next render or preload.
  const preload = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (err: unknown) => {
        loading = null;
        throw err;
      },
    ));
  function LazyPart(props: P) {
    const [, setArrived] = useState(false);
    useEffect(() => {
      if (loaded) return;
      let live = true;
      preload().then(
        () => live && setArrived(true),
        (err: unknown) => console.error("A part of the playground could not be loaded; reload the page to try again.", err),
      );
      return () => {
        live = false;
      };
    }, []);
    if (loaded) return createElement(loaded, props);
    return fallback ? fallback(props) : null;
  }
  preloads.push(preload);
  return LazyPart;
}

const resultFallback = () => <p className="text-sm text-zinc-500">Loading the result view…</p>;

export const ArgumentsForm = lazyPart(() => import("./editor/ArgumentsForm").then((m) => m.ArgumentsForm));
export const CollectionPanel = lazyPart(() => import("./collections/CollectionPanel").then((m) => m.CollectionPanel));
export const CommandPalette = lazyPart(() => import("./CommandPalette").then((m) => m.CommandPalette));
export const ConfirmDestructiveDialog = lazyPart(() => import("./ConfirmDestructiveDialog").then((m) => m.ConfirmDestructiveDialog));
export const CopyAsCodeDialog = lazyPart(() => import("./library/CopyAsCodeDialog").then((m) => m.CopyAsCodeDialog));
export const ExchangeView = lazyPart(() => import("./results/ExchangeView").then((m) => m.ExchangeView), resultFallback);
export const HelpDialog = lazyPart(() => import("./HelpDialog").then((m) => m.HelpDialog));
export const HistoryPanel = lazyPart(() => import("./library/HistoryPanel").then((m) => m.HistoryPanel));
export const MrtrDialog = lazyPart(() => import("./server-requests/MrtrDialog").then((m) => m.MrtrDialog));
export const SaveDialog = lazyPart(() => import("./library/SaveDialog").then((m) => m.SaveDialog));
export const SavedPanel = lazyPart(() => import("./library/SavedPanel").then((m) => m.SavedPanel));
export const SendPreview = lazyPart(() => import("./editor/SendPreview").then((m) => m.SendPreview));
export const ServerRequestDialog = lazyPart(() => import("./server-requests/ServerRequestDialog").then((m) => m.ServerRequestDialog));
export const ShareDialog = lazyPart(() => import("./library/ShareDialog").then((m) => m.ShareDialog));
export const SharedResponseView = lazyPart(() => import("./results/SharedResponseView").then((m) => m.SharedResponseView), resultFallback);
export const ToolExplorer = lazyPart(
  () => import("./explorer/ToolExplorer").then((m) => m.ToolExplorer),
  (props) => <ToolExplorerPending open={props.open} />,
);

/** Fetch and evaluate every part now (a failed one is tried again when it is first shown). */
export function preloadPanels(): void {
  for (const preload of preloads) preload().catch(() => {});
}
