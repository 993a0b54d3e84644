import { safeDownload } from "@/lib/playground/safe-download";
import { JsonTree } from "./JsonTree";

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
    case "resource": {
      const r = (block.resource ?? {}) as Block;
      // The server names the blob and picks its type: saved under a cleaned name with the real extension last, and
      // under a type nothing renders unless it is a passive one (lib/playground/safe-download.ts).
      const file = safeDownload(r.uri, r.mimeType);
      const download = typeof r.blob === "string" ? dataUrl(file.type, r.blob) : undefined;
      return (
        <div className={box} data-testid="content-resource">
          <p className="text-xs uppercase tracking-wide text-zinc-500">Embedded resource</p>
          <code className="break-all text-xs">{String(r.uri)}</code>{" "}
          {typeof r.mimeType === "string" && <span className="text-xs text-zinc-500">({r.mimeType})</span>}
          {typeof r.text === "string" && <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap text-xs">{r.text}</pre>}
          {download && (
            <a href={download} download={file.fileName} className="mt-2 inline-block text-sm text-accent-600 underline">
              Download blob
            </a>
          )}
        </div>
      );
    }
    default:
      return (
        <div className={`${box} font-mono text-xs`}>
          <p className="mb-1 font-sans text-sm text-zinc-500">Content of type {JSON.stringify(block.type)}</p>
          <JsonTree value={block} />
        </div>
      );
  }
}
