"use client";

/** What the person answered: allow once, allow for the rest of this view's life (when offered), or refuse. */
export type AskAnswer = "once" | "view" | "refuse";

export interface Ask {
  text: string;
  /** Offer "Allow for this view" (a tool an app polls would otherwise ask every few seconds). */
  offerView: boolean;
  resolve: (answer: AskAnswer) => void;
}

const primary = "rounded bg-zinc-900 px-2 py-1 text-white dark:bg-zinc-100 dark:text-zinc-900";
const secondary = "rounded border border-zinc-300 px-2 py-1 dark:border-zinc-700";

/** A request of an MCP App's view that waits for the person: Allow (the focus), Allow for this view, Refuse. */
export function AppAsk({ ask, onAnswered }: { ask: Ask; onAnswered: () => void }) {
  const answer = (a: AskAnswer) => {
    ask.resolve(a);
    onAnswered();
  };
  return (
    <div
      role="alertdialog"
      aria-label="The app asks"
      className="mb-2 rounded-md border border-amber-400 bg-amber-50 p-2 text-sm dark:bg-amber-950"
      data-testid="app-ask"
    >
      <p>{ask.text}</p>
      <div className="mt-2 flex flex-wrap gap-2">
        <button type="button" autoFocus className={primary} onClick={() => answer("once")} data-testid="app-ask-allow">
          Allow
        </button>
        {ask.offerView && (
          <button type="button" className={secondary} onClick={() => answer("view")} data-testid="app-ask-allow-view">
            Allow for this view
          </button>
        )}
        <button type="button" className={secondary} onClick={() => answer("refuse")} data-testid="app-ask-refuse">
          Refuse
        </button>
      </div>
    </div>
  );
}
