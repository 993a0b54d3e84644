/**
 * On a snapshot, the Skills section says the server declares the extension and where its skills can be seen:
 * snapshots record tools, not skills, and a skill's files are read from the live server only. Server-safe.
 */
export function SkillsNote({ liveHref }: { liveHref: string }) {
  return (
    <section id="skills" className="mt-8" aria-labelledby="skills-heading" data-testid="docs-skills-note">
      <h2 id="skills-heading" className="text-xl font-semibold">
        Skills
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        The server declares the skills extension (SEP-2640). A snapshot does not record skills:{" "}
        <a href={`${liveHref}#skills`} className="text-accent-700 underline dark:text-accent-100">
          its live docs
        </a>{" "}
        list them.
      </p>
    </section>
  );
}
