"use client";

import type { ReactNode } from "react";
import type { OAuthStep } from "@/lib/mcp/oauth-contract";
import { queryRows, STEP_KIND_LABELS, type OAuthFlowLog } from "@/lib/playground/oauth/oauth-flow-log";
import { HttpExchangeView } from "../wire/HttpExchangeView";
import { Modal } from "../Modal";

const FAILURE_LABELS: Record<NonNullable<OAuthFlowLog["failure"]>["step"], string> = {
  ...STEP_KIND_LABELS,
  popup: "Sign-in window",
  "state-check": "State check of the callback",
  consent: "Consent at the authorization server",
  retry: "Sending the request again",
};

function Verdict({ ok }: { ok: boolean }) {
  return (
    <span
      className={`rounded px-1.5 py-0.5 text-xs font-medium ${ok ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100" : "bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-100"}`}
    >
      {ok ? "ok" : "failed"}
    </span>
  );
}

/** One entry of the flow: a heading with its verdict, then what was checked and what crossed the wire. */
function Entry({ title, kind, ok, children }: { title: string; kind?: string; ok?: boolean; children: ReactNode }) {
  return (
    <li className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
      {kind && <p className="text-xs font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{kind}</p>}
      <h3 className="flex flex-wrap items-center gap-2 text-sm font-semibold">
        <span className="min-w-0 [overflow-wrap:anywhere]">{title}</span>
        {ok !== undefined && <Verdict ok={ok} />}
      </h3>
      <div className="mt-2 space-y-2 text-sm">{children}</div>
    </li>
  );
}

/** A server step the browser has its own entry for: the authorization request and the callback. */
function isBrowserSeen(step: OAuthStep, log: OAuthFlowLog): boolean {
  return (step.kind === "authorization-request" && Boolean(log.authorizationUrl)) || (step.kind === "callback" && Boolean(log.callback));
}

function StepEntry({ step }: { step: OAuthStep }) {
  const kind = STEP_KIND_LABELS[step.kind];
  // The server's titles start with the step's name; the kind line is for those that do not.
  const named = step.title.toLowerCase().startsWith(kind.toLowerCase());
  return (
    <Entry kind={named ? undefined : kind} title={step.title} ok={step.ok}>
      {step.checks.length > 0 && (
        <ul className="list-disc space-y-0.5 pl-5" aria-label="Checks">
          {step.checks.map((c, i) => (
            <li key={i}>{c}</li>
          ))}
        </ul>
      )}
      {step.exchange && (
        <details>
          <summary className="cursor-pointer select-none text-xs text-zinc-600 dark:text-zinc-400">HTTP exchange</summary>
          <div className="mt-2">
            <HttpExchangeView exchanges={[step.exchange]} />
          </div>
        </details>
      )}
    </Entry>
  );
}

function Rows({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 font-mono text-xs">
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-zinc-500 dark:text-zinc-400">{k}</dt>
          <dd className="[overflow-wrap:anywhere]">{v}</dd>
        </div>
      ))}
    </dl>
  );
}

function AuthorizationEntry({ url }: { url: string }) {
  let base = url;
  try {
    const u = new URL(url);
    base = `${u.origin}${u.pathname}`;
  } catch {
    // shown whole
  }
  return (
    <Entry title="Authorization request: you were sent to the authorization server" ok>
      <p className="font-mono text-xs [overflow-wrap:anywhere]">{base}</p>
      <Rows rows={queryRows(url)} />
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        Nothing here is secret: PKCE sends the code challenge, never the verifier, and state is a one-time value.
      </p>
    </Entry>
  );
}

function CallbackEntry({ callback }: { callback: NonNullable<OAuthFlowLog["callback"]> }) {
  const ok = !callback.error && callback.stateMatched && callback.code !== undefined;
  return (
    <Entry title="Callback: the authorization server sent you back" ok={ok}>
      <Rows
        rows={[
          ...(callback.error
            ? [["error", `${callback.error}${callback.errorDescription ? ` — ${callback.errorDescription}` : ""}`] as [string, string]]
            : []),
          ["code", callback.code ?? "(none)"],
          ["state", callback.stateMatched ? "matches the sign-in under way" : "does NOT match the sign-in under way"],
          ["iss", callback.iss ?? "(not sent)"],
        ]}
      />
    </Entry>
  );
}

/**
 * Every step of the latest OAuth flow of this server, in order: the refusal and its challenge, each step the server
 * ran (with its checks and HTTP exchange, tokens masked by the server), where the user was sent, the callback (code
 * masked), and the request sent again with the token. A failure is said first.
 */
export function OAuthDebugger({ log, onClose }: { log: OAuthFlowLog | null; onClose: () => void }) {
  const entries: ReactNode[] = [];
  if (log?.challenge || log?.challengeExchanges?.length) {
    const c = log.challenge;
    entries.push(
      <Entry key="challenge" title={`Refusal: the server answered HTTP ${c?.status ?? "401"}`} ok={false}>
        {c && (
          <Rows
            rows={[
              ["scheme", c.scheme ?? "(no WWW-Authenticate header)"],
              ...(c.resourceMetadataUrl ? [["resource_metadata", c.resourceMetadataUrl] as [string, string]] : []),
              ...(c.scope ? [["scope", c.scope] as [string, string]] : []),
              ...(c.error ? [["error", c.error] as [string, string]] : []),
              ...(c.errorDescription ? [["error_description", c.errorDescription] as [string, string]] : []),
            ]}
          />
        )}
        {log.challengeExchanges?.length ? (
          <details>
            <summary className="cursor-pointer select-none text-xs text-zinc-600 dark:text-zinc-400">
              HTTP exchanges of the refused call
            </summary>
            <div className="mt-2">
              <HttpExchangeView exchanges={log.challengeExchanges} />
            </div>
          </details>
        ) : null}
      </Entry>,
    );
  }
  log?.steps.forEach((step, i) => {
    if (log.authorizationUrl && log.authorizationAt === i) entries.push(<AuthorizationEntry key="authz" url={log.authorizationUrl} />);
    if (log.callback && log.callbackAt === i) entries.push(<CallbackEntry key="callback" callback={log.callback} />);
    // The browser saw these two itself (the whole query; the code, state and iss as they came back): its entries
    // say more than the server's summary of the same moment, so the server's are not listed twice.
    if (isBrowserSeen(step, log)) return;
    entries.push(<StepEntry key={`step-${i}`} step={step} />);
  });
  const n = log?.steps.length ?? 0;
  if (log?.authorizationUrl && (log.authorizationAt ?? n) >= n) entries.push(<AuthorizationEntry key="authz" url={log.authorizationUrl} />);
  if (log?.callback && (log.callbackAt ?? n) >= n) entries.push(<CallbackEntry key="callback" callback={log.callback} />);
  if (log?.retried)
    entries.push(
      <Entry key="retried" title={`Sent again with the token: ${log.retried.what}`} ok={log.retried.ok}>
        <p>{log.retried.summary}</p>
        {log.retried.exchanges?.length ? (
          <details>
            <summary className="cursor-pointer select-none text-xs text-zinc-600 dark:text-zinc-400">HTTP exchanges</summary>
            <div className="mt-2">
              <HttpExchangeView exchanges={log.retried.exchanges} />
            </div>
          </details>
        ) : null}
      </Entry>,
    );

  return (
    <Modal title="OAuth debugger" onClose={onClose} testId="oauth-debugger" widthClass="w-[min(56rem,calc(100vw-2rem))]">
      {log?.failure && (
        <div
          role="alert"
          className="mb-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200"
        >
          <p className="font-semibold">Failed at: {FAILURE_LABELS[log.failure.step] ?? log.failure.step}</p>
          <p className="mt-1">{log.failure.message}</p>
        </div>
      )}
      {log ? (
        <>
          <p className="mb-3 text-xs text-zinc-600 dark:text-zinc-400">
            The latest flow for <span className="font-mono">{log.server}</span>, started {new Date(log.startedAt).toLocaleTimeString()}.
            Tokens, codes and secrets are masked.
          </p>
          <ol className="space-y-3" aria-label="Steps of the flow">
            {entries}
          </ol>
        </>
      ) : (
        <p className="text-sm">No OAuth flow has run for this server in this page yet.</p>
      )}
    </Modal>
  );
}
