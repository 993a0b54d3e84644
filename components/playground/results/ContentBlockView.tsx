import { isObject } from "@/lib/json/guards";
import { JsonTree } from "./JsonTree";
import { ResourceContents } from "./ResourceContentsView";

type Block = Record<string, unknown>;

function prettyText(text: string): { json: boolean; text: string } {
  const t = text.trim();
  if ((t.startsWith("{") || t.startsWith("[")) && t.length < 2_000_000) {
    try {
      return { json: true, text: JSON.stringify(JSON.parse(t), null, 2) };
    } catch {
      // Not JSON after all: show as written.
    }
  }
  return { json: false, text };
}

/** Only inline data is rendered as media: remote URLs from an untrusted server are never loaded without asking. */
function dataUrl(mimeType: unknown, data: unknown): string | undefined {
  if (typeof data !== "string" || typeof mimeType !== "string" || !/^[\w.+-]+\/[\w.+-]+$/.test(mimeType)) return undefined;
  return `data:${mimeType};base64,${data}`;
}

/** Renders one MCP content block (text, image, audio, resource_link, embedded resource). Props: `block`. */
export function ContentBlockView({ block }: { block: Block }) {
  const box = "rounded-md border border-zinc-200 p-3 dark:border-zinc-800";
  switch (block.type) {
    case "text": {
      const { json, text } = prettyText(String(block.text ?? ""));
      return (
        <pre
          data-testid="content-text"
          className={`${box} overflow-x-auto whitespace-pre-wrap break-words font-mono text-xs ${json ? "" : "font-sans text-sm"}`}
        >
          {text}
        </pre>
      );
    }
    case "image": {
      const src = dataUrl(block.mimeType, block.data);
      return (
        <figure className={box} data-testid="content-image">
          {src ? (
            // eslint-disable-next-line @next/next/no-img-element -- inline data from the response, not an optimisable asset
            <img src={src} alt="Image returned by the tool" className="max-h-80 max-w-full" />
          ) : (
            <p className="text-sm text-red-700">Image block without valid base64 data and mimeType.</p>
          )}
          <figcaption className="mt-1 text-xs text-zinc-500">
            {String(block.mimeType)} · {Math.round((String(block.data ?? "").length * 3) / 4)} bytes
          </figcaption>
        </figure>
      );
    }
    case "audio": {
      const src = dataUrl(block.mimeType, block.data);
      return (
        <figure className={box} data-testid="content-audio">
          {src ? (
            <audio controls src={src} className="w-full max-w-md" />
          ) : (
            <p className="text-sm text-red-700">Audio block without valid base64 data and mimeType.</p>
          )}
          <figcaption className="mt-1 text-xs text-zinc-500">{String(block.mimeType)}</figcaption>
        </figure>
      );
    }
    case "resource_link":
      return (
        <div className={box} data-testid="content-resource-link">
          <p className="text-xs uppercase tracking-wide text-zinc-500">Resource link</p>
          <p className="font-medium">{String(block.title ?? block.name ?? block.uri)}</p>
          <code className="break-all text-xs">{String(block.uri)}</code>
          {typeof block.description === "string" && <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{block.description}</p>}
          {typeof block.mimeType === "string" && <p className="text-xs text-zinc-500">{block.mimeType}</p>}
        </div>
      );
    case "resource":
      return (
        <div data-testid="content-resource">
          <ResourceContents contents={(isObject(block.resource) ? block.resource : {}) as Block} heading="Embedded resource" />
        </div>
      );
    default:
      return (
        <div className={`${box} font-mono text-xs`}>
          <p className="mb-1 font-sans text-sm text-zinc-500">Content of type {JSON.stringify(block.type)}</p>
          <JsonTree value={block} />
        </div>
      );
  }
}
