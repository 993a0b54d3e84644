import type { ToolListItem } from "@/lib/docs/tool-rows";
import { Badge } from "@/components/ui/Badge";

const DEFAULT_DESTRUCTIVE = "Not stated by the server: the spec default is destructive";

/** The behaviour of a tool in a list row: read-only, destructive or modifies, and idempotent where it applies. */
export function BehaviourBadges({ item }: { item: Pick<ToolListItem, "behaviour" | "idempotent"> }) {
  const { kind, stated } = item.behaviour;
  return (
    <>
      {kind === "read-only" ? (
        <Badge tone="success" variant={stated ? "solid" : "dashed"}>
          read-only
        </Badge>
      ) : kind === "destructive" ? (
        <Badge tone="danger" variant={stated ? "solid" : "dashed"} title={stated ? undefined : DEFAULT_DESTRUCTIVE}>
          destructive
        </Badge>
      ) : (
        <Badge tone="warning" variant="solid">
          modifies
        </Badge>
      )}
      {item.idempotent && (
        <Badge tone="info" variant="solid">
          idempotent
        </Badge>
      )}
    </>
  );
}

const MARK_CLASS: Record<ToolListItem["behaviour"]["kind"] | "idempotent", string> = {
  "read-only": "border-emerald-600 text-emerald-800 dark:border-emerald-400 dark:text-emerald-300",
  destructive: "border-red-600 text-red-800 dark:border-red-400 dark:text-red-300",
  modifies: "border-amber-600 text-amber-900 dark:border-amber-400 dark:text-amber-200",
  idempotent: "border-sky-600 text-sky-800 dark:border-sky-400 dark:text-sky-300",
};
const MARK_LETTER = { "read-only": "R", destructive: "D", modifies: "M", idempotent: "I" } as const;

/** One-letter markers for the sidebar (R, D, M, I), dashed when the spec default decided; named for screen readers. */
export function BehaviourMarks({ item }: { item: Pick<ToolListItem, "behaviour" | "idempotent"> }) {
  const marks: { kind: keyof typeof MARK_LETTER; stated: boolean }[] = [item.behaviour];
  if (item.idempotent) marks.push({ kind: "idempotent", stated: true });
  return (
    <span className="ml-auto flex shrink-0 gap-0.5">
      {marks.map((m) => (
        <abbr
          key={m.kind}
          title={`${m.kind}${m.stated ? "" : " (spec default)"}`}
          className={`grid h-4 w-4 place-items-center rounded border text-[0.6rem] font-semibold no-underline ${m.stated ? "border-solid" : "border-dashed"} ${MARK_CLASS[m.kind]}`}
        >
          <span aria-hidden>{MARK_LETTER[m.kind]}</span>
          <span className="sr-only">{m.kind}</span>
        </abbr>
      ))}
    </span>
  );
}
