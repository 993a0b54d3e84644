import { ContentBlockView } from "./ContentBlockView";

type Message = Record<string, unknown>;

/**
 * A `prompts/get` result as the conversation it is (issue 26: a collapsed JSON tree): the description, then each
 * message under its role, its content rendered as tool results are (text, images, audio, embedded resources, links).
 */
export function PromptMessages({ description, messages }: { description?: unknown; messages: unknown[] }) {
  return (
    <section className="space-y-2" data-testid="prompt-messages" aria-label="Prompt messages">
      {typeof description === "string" && <p className="text-sm text-zinc-600 dark:text-zinc-400">{description}</p>}
      <ol className="space-y-2">
        {messages.map((m, i) => {
          const message = (m ?? {}) as Message;
          const role = typeof message.role === "string" ? message.role : "unknown role";
          // 2025-11-25 has one content block per message; a list is shown whole too.
          const blocks = (Array.isArray(message.content) ? message.content : [message.content]) as Record<string, unknown>[];
          return (
            <li key={i} data-testid="prompt-message" data-role={role} className={role === "assistant" ? "pl-6" : ""}>
              <p className="mb-1 text-xs font-medium uppercase tracking-wide text-zinc-500">{role}</p>
              <div className="space-y-1.5">
                {blocks.map((b, j) => (
                  <ContentBlockView key={j} block={b ?? {}} />
                ))}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
