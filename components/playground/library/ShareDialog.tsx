"use client";

import { useMemo, useState } from "react";
import { ShareLinkError, shareUrl, type SharedExperiment } from "@/lib/share/share-codec";
import { CopyButton } from "@/components/ui/CopyButton";
import type { UserHeaders } from "@/lib/mcp/contract";
import { Modal } from "../Modal";
import { SnapshotShare } from "./SnapshotShare";

interface Props {
  experiment: Omit<SharedExperiment, "response">;
  /** The latest response, offered as an option. */
  response?: unknown;
  onClose: () => void;
  /** The server is reached with a sign-in: offer a docs snapshot (after a confirmation), live docs being unable to. */
  signedIn?: { headers: UserHeaders; issuer?: string };
}

/** A link to this experiment, in the URL fragment: nothing is stored on our server, and no header or token is included. */
export function ShareDialog({ experiment, response, onClose, signedIn }: Props) {
  const [withResponse, setWithResponse] = useState(false);
  const result = useMemo((): { url: string } | { error: string } => {
    try {
      return { url: shareUrl(window.location.origin, withResponse && response !== undefined ? { ...experiment, response } : experiment) };
    } catch (err) {
      return { error: err instanceof ShareLinkError ? err.message : String(err) };
    }
  }, [experiment, response, withResponse]);
  return (
    <Modal title="Share this experiment" onClose={onClose} testId="share-dialog">
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        The link carries the server URL, the protocol era and the request{withResponse ? ", and the response" : ""}, compressed into the
        part after <code>#</code>, which browsers never send to a server. Your headers and tokens are never included. Opening the link fills
        the editor; nothing is sent until Send is pressed.
      </p>
      {response !== undefined && (
        <label className="mt-3 flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            checked={withResponse}
            onChange={(e) => setWithResponse(e.target.checked)}
            data-testid="share-with-response"
          />
          Include the latest response
        </label>
      )}
      {"url" in result ? (
        <div className="mt-3 flex gap-2">
          <input
            readOnly
            value={result.url}
            aria-label="Share link"
            data-testid="share-url"
            onFocus={(e) => e.currentTarget.select()}
            className="min-w-0 flex-1 rounded-md border border-zinc-300 bg-zinc-50 px-2 py-1 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
          />
          <CopyButton text={result.url} testId="share-copy" />
        </div>
      ) : (
        <p role="alert" className="mt-3 text-sm text-red-700 dark:text-red-400">
          {result.error}
        </p>
      )}
      {"url" in result && <p className="mt-1 text-xs text-zinc-500">{result.url.length.toLocaleString("en")} characters.</p>}
      {signedIn && <SnapshotShare server={experiment.server} headers={signedIn.headers} issuer={signedIn.issuer} />}
    </Modal>
  );
}
