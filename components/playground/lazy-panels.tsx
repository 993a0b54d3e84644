"use client";

import { lazy, type ComponentType } from "react";

/**
 * The playground's parts that are not on screen when it opens: dialogs, panels behind a button, and what needs the
 * connection (the explorer, the arguments form, the send preview, the result). Each is its own chunk, so the first
 * render (the editor) evaluates none of their code (issue 15: the editor takes typing ≤ 1 s after navigation);
 * {@link preloadPanels} fetches them all while the server is being connected.
 */
const loaders = {
  ArgumentsForm: () => import("./ArgumentsForm").then((m) => m.ArgumentsForm),
  CommandPalette: () => import("./CommandPalette").then((m) => m.CommandPalette),
  ConfirmDestructiveDialog: () => import("./ConfirmDestructiveDialog").then((m) => m.ConfirmDestructiveDialog),
  CopyAsCodeDialog: () => import("./CopyAsCodeDialog").then((m) => m.CopyAsCodeDialog),
  ExchangeView: () => import("./ExchangeView").then((m) => m.ExchangeView),
  HelpDialog: () => import("./HelpDialog").then((m) => m.HelpDialog),
  HistoryPanel: () => import("./HistoryPanel").then((m) => m.HistoryPanel),
  MrtrDialog: () => import("./MrtrDialog").then((m) => m.MrtrDialog),
  SaveDialog: () => import("./SaveDialog").then((m) => m.SaveDialog),
  SavedPanel: () => import("./SavedPanel").then((m) => m.SavedPanel),
  SendPreview: () => import("./SendPreview").then((m) => m.SendPreview),
  ServerRequestDialog: () => import("./ServerRequestDialog").then((m) => m.ServerRequestDialog),
  ShareDialog: () => import("./ShareDialog").then((m) => m.ShareDialog),
  SharedResponseView: () => import("./SharedResponseView").then((m) => m.SharedResponseView),
  ToolExplorer: () => import("./ToolExplorer").then((m) => m.ToolExplorer),
};

/** A named export as a lazy component, its props type kept. */
function lazyPart<P>(load: () => Promise<ComponentType<P>>) {
  return lazy(() => load().then((component) => ({ default: component })));
}

export const ArgumentsForm = lazyPart(loaders.ArgumentsForm);
export const CommandPalette = lazyPart(loaders.CommandPalette);
export const ConfirmDestructiveDialog = lazyPart(loaders.ConfirmDestructiveDialog);
export const CopyAsCodeDialog = lazyPart(loaders.CopyAsCodeDialog);
export const ExchangeView = lazyPart(loaders.ExchangeView);
export const HelpDialog = lazyPart(loaders.HelpDialog);
export const HistoryPanel = lazyPart(loaders.HistoryPanel);
export const MrtrDialog = lazyPart(loaders.MrtrDialog);
export const SaveDialog = lazyPart(loaders.SaveDialog);
export const SavedPanel = lazyPart(loaders.SavedPanel);
export const SendPreview = lazyPart(loaders.SendPreview);
export const ServerRequestDialog = lazyPart(loaders.ServerRequestDialog);
export const ShareDialog = lazyPart(loaders.ShareDialog);
export const SharedResponseView = lazyPart(loaders.SharedResponseView);
export const ToolExplorer = lazyPart(loaders.ToolExplorer);

let preloaded = false;

/** Fetch and evaluate every part now (once per page): called while connecting, so none waits when it is first shown. */
export function preloadPanels(): void {
  if (preloaded) return;
  preloaded = true;
  for (const load of Object.values(loaders)) load().catch(() => (preloaded = false));
}
