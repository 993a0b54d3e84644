import { itemBehaviour, itemIdempotent, type ToolListItem } from "@/lib/docs/tool-rows";

const DEFAULT_DESTRUCTIVE = "Not stated by the server: the spec default is destructive";

/*
 * Lists of 1,000 tools show these on every row, so a badge or marker is a bare element whose look comes from its
 * list (BADGES_CLASS, MARKS_CLASS), keyed on an attribute it carries anyway: one class string per page rather than
 * ~250 bytes per row. The colours are those of the Badge component's tones (solid for stated, dashed for defaults).
 */

/** For the element around rows with {@link BehaviourBadges}: how `[data-badge]` looks (Badge's shape and tones). */
export const BADGES_CLASS = [
  "[&_[data-badge]]:inline-flex [&_[data-badge]]:max-w-full [&_[data-badge]]:items-center [&_[data-badge]]:gap-1 [&_[data-badge]]:whitespace-nowrap",
  "[&_[data-badge]]:rounded-full [&_[data-badge]]:border [&_[data-badge]]:px-2 [&_[data-badge]]:py-0.5 [&_[data-badge]]:text-xs [&_[data-badge]]:font-medium [&_[data-badge]]:leading-5",
  "[&_[data-badge$=default]]:border-dashed",
  // success, solid and dashed
  "[&_[data-badge=read-only]]:bg-emerald-50 [&_[data-badge=read-only]]:text-emerald-800 [&_[data-badge=read-only]]:border-emerald-500",
  "dark:[&_[data-badge=read-only]]:bg-emerald-900/40 dark:[&_[data-badge=read-only]]:text-emerald-200 dark:[&_[data-badge=read-only]]:border-emerald-500",
  "[&_[data-badge=read-only-default]]:text-emerald-800 [&_[data-badge=read-only-default]]:border-emerald-500",
  "dark:[&_[data-badge=read-only-default]]:text-emerald-300 dark:[&_[data-badge=read-only-default]]:border-emerald-500",
  // danger, solid and dashed
  "[&_[data-badge=destructive]]:bg-red-50 [&_[data-badge=destructive]]:text-red-800 [&_[data-badge=destructive]]:border-red-500",
  "dark:[&_[data-badge=destructive]]:bg-red-900/40 dark:[&_[data-badge=destructive]]:text-red-200 dark:[&_[data-badge=destructive]]:border-red-500",
  "[&_[data-badge=destructive-default]]:text-red-800 [&_[data-badge=destructive-default]]:border-red-500",
  "dark:[&_[data-badge=destructive-default]]:text-red-300 dark:[&_[data-badge=destructive-default]]:border-red-500",
  // warning, solid
  "[&_[data-badge=modifies]]:bg-amber-50 [&_[data-badge=modifies]]:text-amber-900 [&_[data-badge=modifies]]:border-amber-500",
  "dark:[&_[data-badge=modifies]]:bg-amber-900/40 dark:[&_[data-badge=modifies]]:text-amber-200 dark:[&_[data-badge=modifies]]:border-amber-500",
  // info, solid
  "[&_[data-badge=idempotent]]:bg-sky-50 [&_[data-badge=idempotent]]:text-sky-800 [&_[data-badge=idempotent]]:border-sky-500",
  "dark:[&_[data-badge=idempotent]]:bg-sky-900/40 dark:[&_[data-badge=idempotent]]:text-sky-200 dark:[&_[data-badge=idempotent]]:border-sky-500",
].join(" ");

/** The behaviour of a tool in a list row: read-only, destructive or modifies, and idempotent where it applies. */
export function BehaviourBadges({ item }: { item: Pick<ToolListItem, "marks"> }) {
  const { kind, stated } = itemBehaviour(item);
  return (
    <>
      <span data-badge={stated ? kind : `${kind}-default`} title={kind === "destructive" && !stated ? DEFAULT_DESTRUCTIVE : undefined}>
        {LABEL[kind]}
      </span>
      {itemIdempotent(item) && <span data-badge="idempotent">idempotent</span>}
    </>
  );
}

/**
 * For the element around {@link BehaviourMarks}: how an `abbr` marker looks, by its title (which names the
 * behaviour, with " (spec default)" when the default decided: dashed then).
 */
export const MARKS_CLASS = [
  "[&_abbr]:grid [&_abbr]:h-4 [&_abbr]:w-4 [&_abbr]:place-items-center [&_abbr]:rounded [&_abbr]:border [&_abbr]:text-[0.6rem] [&_abbr]:font-semibold [&_abbr]:no-underline",
  "[&_abbr[title*=default]]:border-dashed [&_abbr>span+span]:sr-only",
  "[&_abbr[title^=read-only]]:border-emerald-600 [&_abbr[title^=read-only]]:text-emerald-800 dark:[&_abbr[title^=read-only]]:border-emerald-400 dark:[&_abbr[title^=read-only]]:text-emerald-300",
  "[&_abbr[title^=destructive]]:border-red-600 [&_abbr[title^=destructive]]:text-red-800 dark:[&_abbr[title^=destructive]]:border-red-400 dark:[&_abbr[title^=destructive]]:text-red-300",
  "[&_abbr[title^=may]]:border-amber-600 [&_abbr[title^=may]]:text-amber-900 dark:[&_abbr[title^=may]]:border-amber-400 dark:[&_abbr[title^=may]]:text-amber-200",
  "[&_abbr[title^=idempotent]]:border-sky-600 [&_abbr[title^=idempotent]]:text-sky-800 dark:[&_abbr[title^=idempotent]]:border-sky-400 dark:[&_abbr[title^=idempotent]]:text-sky-300",
].join(" ");

const MARK_LETTER = { "read-only": "R", destructive: "D", modifies: "M", idempotent: "I" } as const;

/**
 * What a row says: the words of the hint badges on the tool's page (lib/docs/annotations.ts), so a tool that may
 * modify its environment is not "modifies" in the list and "may modify" on its page (issue 26).
 */
const LABEL: Record<keyof typeof MARK_LETTER, string> = {
  "read-only": "read-only",
  destructive: "destructive",
  modifies: "may modify",
  idempotent: "idempotent",
};

/**
 * One-letter markers for the sidebar (R, D, M, I), dashed when the spec default decided; named for screen readers.
 * Styled by MARKS_CLASS on an element around them.
 */
export function BehaviourMarks({ item }: { item: Pick<ToolListItem, "marks"> }) {
  const marks: { kind: keyof typeof MARK_LETTER; stated: boolean }[] = [itemBehaviour(item)];
  if (itemIdempotent(item)) marks.push({ kind: "idempotent", stated: true });
  return (
    <span>
      {marks.map((m) => (
        <abbr key={m.kind} title={`${LABEL[m.kind]}${m.stated ? "" : " (spec default)"}`}>
          <span aria-hidden>{MARK_LETTER[m.kind]}</span>
          <span>{LABEL[m.kind]}</span>
        </abbr>
      ))}
    </span>
  );
}
