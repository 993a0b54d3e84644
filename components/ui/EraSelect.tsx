import { ERA_CHOICES, type EraChoice } from "@/lib/mcp/contract";

/** What each era choice means, in words (the home connect form and the playground's server switcher). */
const ERA_LABELS: Record<EraChoice, string> = {
  auto: "auto (detect: discover, initialize, HTTP+SSE)",
  modern: "modern (2026-07-28)",
  legacy: "legacy (initialize, 2025-11-25)",
  "legacy-sse": "legacy HTTP+SSE (2024-11-05, deprecated)",
};

/** A text field's look, shared by the forms that connect to a server. */
export const connectField = "w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900";

interface Props {
  id: string;
  value: EraChoice;
  onChange: (era: EraChoice) => void;
}

/** The "Protocol era" label and select of a connect form. */
export function EraSelect({ id, value, onChange }: Props) {
  return (
    <>
      <label htmlFor={id} className="mb-1 block text-sm font-medium">
        Protocol era
      </label>
      <select id={id} className={connectField} value={value} onChange={(e) => onChange(e.target.value as EraChoice)}>
        {ERA_CHOICES.map((c) => (
          <option key={c} value={c}>
            {ERA_LABELS[c]}
          </option>
        ))}
      </select>
    </>
  );
}
