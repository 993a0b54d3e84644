/** Something the command palette lists. */
export interface CommandLike {
  label: string;
  group: string;
}

/** Commands whose label or group contain every word of the query (case-insensitive), in their order. */
export function filterCommands<T extends CommandLike>(commands: readonly T[], query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return commands.filter((c) => {
    const text = `${c.label} ${c.group}`.toLowerCase();
    return words.every((w) => text.includes(w));
  });
}
