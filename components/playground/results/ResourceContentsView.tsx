import { Markdown } from "@/components/ui/Markdown";
import { safeDownload } from "@/lib/playground/stores/safe-download";

type Contents = Record<string, unknown>;

/** Base64 data that a page may show as media: images and audio only, and only inline (never a remote URL). */
function mediaUrl(kind: "image" | "audio", mimeType: unknown, blob: unknown): string | undefined {
  if (typeof blob !== "string" || typeof mimeType !== "string") return undefined;
  const type = mimeType.split(";")[0].trim().toLowerCase();
  // SVG is an image that runs script in some contexts: offered as a download only.
  if (!new RegExp(`^${kind}/[\\w.+-]+$`).test(type) || type === "image/svg+xml") return undefined;
  return `data:${type};base64,${blob}`;
}

function isMarkdown(mimeType: unknown, uri: unknown): boolean {
  const type = typeof mimeType === "string" ? mimeType.split(";")[0].trim().toLowerCase() : "";
  return type === "text/markdown" || type === "text/x-markdown" || (!type && /\.(md|markdown)$/i.test(String(uri ?? "")));
}

/**
 * One item of a `resources/read` result (or an embedded resource's `resource`), rendered as a person reads it
 * (issue 26: a collapsed JSON tree was all there was): Markdown rendered with the docs' sanitising renderer, other text
 * as written, images and audio from inline data, any other blob as a download under a safe name and type.
 */
export function ResourceContents({ contents, heading = "Resource" }: { contents: Contents; heading?: string }) {
  const { uri, mimeType, text, blob } = contents;
  const image = mediaUrl("image", mimeType, blob);
  const audio = image ? undefined : mediaUrl("audio", mimeType, blob);
  const file = safeDownload(uri, mimeType);
  const download = typeof blob === "string" && !image && !audio ? `data:${file.type};base64,${blob}` : undefined;
  return (
    <div className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800" data-testid="resource-contents">
      <p className="text-xs uppercase tracking-wide text-zinc-500">{heading}</p>
      <code className="break-all text-xs">{String(uri ?? "")}</code>{" "}
      {typeof mimeType === "string" && <span className="text-xs text-zinc-500">({mimeType})</span>}
      {typeof text === "string" &&
        (isMarkdown(mimeType, uri) ? (
          <div className="mt-2 max-h-[32rem] overflow-auto text-sm" data-testid="resource-markdown">
            <Markdown source={text} />
          </div>
        ) : (
          <pre className="mt-2 max-h-96 overflow-auto whitespace-pre-wrap break-words text-xs" data-testid="resource-text">
            {text}
          </pre>
        ))}
      {image && (
        // eslint-disable-next-line @next/next/no-img-element -- inline data from the response, not an optimisable asset
        <img src={image} alt={`Resource ${String(uri ?? "")}`} className="mt-2 max-h-80 max-w-full" data-testid="resource-image" />
      )}
      {audio && <audio controls src={audio} className="mt-2 w-full max-w-md" data-testid="resource-audio" />}
      {download && (
        <a
          href={download}
          download={file.fileName}
          className="mt-2 inline-block text-sm text-accent-600 underline"
          data-testid="resource-download"
        >
          Download {file.fileName} ({Math.round((blob as string).length * 0.75).toLocaleString("en")} bytes)
        </a>
      )}
    </div>
  );
}
