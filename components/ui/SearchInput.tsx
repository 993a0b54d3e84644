/** Props for {@link SearchInput}. */
interface Props {
  value: string;
  onChange: (value: string) => void;
  /** Shows the query syntax, e.g. "Search: words, tool:name". */
  placeholder: string;
  /** The accessible name. */
  label: string;
  testId: string;
}

/** The search field of a list panel (history, saved requests): grows to fill its row, never narrower than 12rem. */
export function SearchInput({ value, onChange, placeholder, label, testId }: Props) {
  return (
    <input
      type="search"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={placeholder}
      aria-label={label}
      data-testid={testId}
      className="min-w-0 flex-1 basis-48 rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm dark:border-zinc-700 dark:bg-zinc-900"
    />
  );
}
