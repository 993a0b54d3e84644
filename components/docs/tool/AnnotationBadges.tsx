import type { Tool } from "@/lib/mcp/contract";
import { effectiveHints, type EffectiveHint } from "@/lib/docs/annotations";
import { Badge, type BadgeTone } from "@/components/ui/Badge";

/** Props for {@link AnnotationBadges}. */
export interface AnnotationBadgesProps {
  /** The tool whose `annotations` are shown (only `annotations` is read). */
  tool: Pick<Tool, "annotations">;
  /**
   * Show a note that hints are claims by the server, not verified facts. `true` uses the default wording;
   * a string replaces it. Default true.
   */
  untrustedNote?: boolean | string;
  /** Also show hints that do not apply (destructive/idempotent on a read-only tool), muted. Default true. */
  showNotMeaningful?: boolean;
  testId?: string;
}

function toneOf(h: EffectiveHint): BadgeTone {
  switch (h.label) {
    case "read-only":
      return "success";
    case "destructive":
      return "danger";
    case "may modify":
      return "warning";
    case "open world":
      return "info";
    default:
      return "neutral";
  }
}

/**
 * What a hint is about, in a word, for a hint that does not apply: its value there (the default "destructive", or
 * "not idempotent") would read as a claim about the tool (issue 26: "destructive (default) (n/a)" on a read-only one).
 */
const HINT_NOUN: Record<string, string> = { destructiveHint: "destructive", idempotentHint: "idempotent" };

const DEFAULT_NOTE = "Annotations are hints from the server. Treat them as untrusted unless you trust the server.";

/**
 * Every behavioural hint with its effective value. Values the server set are solid badges; spec defaults are dashed
 * and say "(default)" in the badge itself. Hints that do not apply (destructive/idempotent on a read-only tool) are
 * neutral and say "n/a (read-only)" after the hint's name, not its value: no strikethrough and no faded text, both hard
 * to read, in either colour scheme.
 */
export function AnnotationBadges({
  tool,
  untrustedNote = true,
  showNotMeaningful = true,
  testId = "annotation-badges",
}: AnnotationBadgesProps) {
  const hints = effectiveHints(tool).filter((h) => showNotMeaningful || h.meaningful);
  const note = untrustedNote === true ? DEFAULT_NOTE : untrustedNote || undefined;
  return (
    <div data-testid={testId} className="min-w-0">
      <ul className="flex flex-wrap gap-1.5" aria-label="Behaviour hints">
        {hints.map((h) => {
          const origin = h.source === "default" ? "(default)" : "(set by server)";
          const title = `${h.key}: ${h.value} ${origin}. ${h.explanation}`;
          return (
            <li key={h.key}>
              <Badge
                tone={h.meaningful ? toneOf(h) : "neutral"}
                variant={h.source === "set" ? "solid" : "dashed"}
                title={title}
                testId={`annotation-${h.key}`}
              >
                <span data-source={h.source} data-value={String(h.value)} data-meaningful={String(h.meaningful)}>
                  {h.meaningful ? h.label : `${HINT_NOUN[h.key] ?? h.key}:`}
                </span>
                {h.meaningful && h.source === "default" && <span className="font-normal">(default)</span>}
                {!h.meaningful && (
                  <span className="font-normal" title="Does not apply: the tool claims to be read-only">
                    n/a (read-only)
                  </span>
                )}
                <span className="sr-only">
                  {h.source === "set" ? ` ${origin}` : ""}
                  {h.meaningful ? "" : " (does not apply: the tool claims to be read-only)"}
                </span>
              </Badge>
            </li>
          );
        })}
      </ul>
      {note && (
        <p data-testid="annotation-untrusted-note" className="mt-1.5 text-xs text-zinc-500 dark:text-zinc-400">
          {note}
        </p>
      )}
    </div>
  );
}
