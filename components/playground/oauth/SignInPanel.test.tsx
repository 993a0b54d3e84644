import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { OAuthChallenge } from "@/lib/mcp/oauth-contract";
import { PhaseLine, SignInPanel } from "./SignInPanel";
import type { OAuthPhase, SignInFields, SignInPrompt } from "./useOAuth";

afterEach(cleanup);

const challenge: OAuthChallenge = {
  status: 401,
  scheme: "Bearer",
  resourceMetadataUrl: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
  scope: "files:read files:write",
  error: "invalid_token",
  errorDescription: "The access token expired",
};

const prompt: SignInPrompt = {
  challenge,
  reason: "The server asks you to sign in before it answers.",
  request: { scope: challenge.scope, resourceMetadataUrl: challenge.resourceMetadataUrl },
};

function renderPanel(
  over: { prompt?: SignInPrompt; phase?: OAuthPhase; remembered?: boolean; dismissible?: boolean; debuggable?: boolean } = {},
) {
  const signIns: SignInFields[] = [];
  const calls = { cancelWait: 0, dismiss: 0, debugger: 0 };
  const view = render(
    <SignInPanel
      prompt={over.prompt ?? prompt}
      phase={over.phase ?? { kind: "idle" }}
      remembered={over.remembered ?? false}
      onSignIn={(f) => signIns.push(f)}
      onCancelWait={() => calls.cancelWait++}
      {...(over.dismissible === false ? {} : { onDismiss: () => calls.dismiss++ })}
      {...(over.debuggable ? { onDebugger: () => calls.debugger++ } : {})}
    />,
  );
  const panel = screen.getByTestId("oauth-sign-in");
  return { signIns, calls, panel, rerender: view.rerender };
}

/** The challenge as rows: the dt text to the dd text. */
function challengeRows(): Record<string, string> {
  const dl = screen.getByTestId("oauth-challenge");
  const out: Record<string, string> = {};
  for (const dt of dl.querySelectorAll("dt")) out[dt.textContent ?? ""] = dt.nextElementSibling?.textContent ?? "";
  return out;
}

const type = (el: HTMLElement, value: string) => act(() => void fireEvent.change(el, { target: { value } }));
const click = (el: HTMLElement) => act(() => void fireEvent.click(el));
const signInButton = () => screen.getByRole("button", { name: "Sign in" });

test("is a region named by its heading, which takes the focus, with the reason under it", () => {
  const { panel } = renderPanel();
  const heading = within(panel).getByRole("heading", { level: 2, name: "This server needs sign-in" });
  assert.equal(screen.getByRole("region", { name: "This server needs sign-in" }), panel);
  assert.equal(document.activeElement, heading, "the heading has the focus, so screen readers start here");
  assert.match(panel.textContent ?? "", /The server asks you to sign in before it answers\./);
});

test("shows the server's challenge as sent, nothing masked", () => {
  renderPanel();
  assert.deepEqual(challengeRows(), {
    Status: "HTTP 401",
    Scheme: "Bearer",
    resource_metadata: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
    scope: "files:read files:write",
    error: "invalid_token",
    error_description: "The access token expired",
  });
  assert.doesNotMatch(screen.getByTestId("oauth-challenge").textContent ?? "", /•/);
});

test("a challenge without WWW-Authenticate says so, and leaves out the fields it lacks", () => {
  renderPanel({ prompt: { challenge: { status: 403 }, reason: "Refused.", request: {} } });
  assert.deepEqual(challengeRows(), { Status: "HTTP 403", Scheme: "(no WWW-Authenticate header)" });
});

test("the Scope box starts with the request's scope (the challenge's), and is empty when there is none", () => {
  renderPanel();
  assert.equal((screen.getByLabelText("Scope") as HTMLInputElement).value, "files:read files:write");
  cleanup();
  renderPanel({ prompt: { challenge: { status: 401, scheme: "Bearer" }, reason: "Sign in.", request: {} } });
  assert.equal((screen.getByLabelText("Scope") as HTMLInputElement).value, "", "empty: the server picks");
});

test("a step-up prefills the widened scope the decision asks for, not only the challenge's", () => {
  renderPanel({
    prompt: {
      challenge: { status: 403, scheme: "Bearer", scope: "files:write", error: "insufficient_scope" },
      reason: "More scope needed.",
      request: { scope: "files:read files:write", forceReauthorization: true },
    },
  });
  assert.equal((screen.getByLabelText("Scope") as HTMLInputElement).value, "files:read files:write");
});

test("'Use my client' folds out the client fields: Client ID, Client secret and the token endpoint method", () => {
  const { panel } = renderPanel();
  const details = panel.querySelector("details");
  assert.ok(details);
  assert.equal(details.open, false, "folded at first: Toolscope registers a client by itself");
  const clientId = screen.getByLabelText("Client ID");
  assert.ok(details.contains(clientId) && details.contains(screen.getByLabelText("Client secret")));
  click(within(panel).getByText("Use my client"));
  assert.equal(details.open, true);
  const secret = screen.getByLabelText("Client secret") as HTMLInputElement;
  assert.equal(secret.type, "text", "not a password field: no password manager offers to keep it");
  assert.equal(secret.autocomplete, "off");
  const method = screen.getByLabelText("Token endpoint authentication") as HTMLSelectElement;
  assert.equal(method.value, "", "the authorization server's own choice by default");
  assert.deepEqual(
    [...method.options].map((o) => o.value),
    ["", "client_secret_basic", "client_secret_post", "none"],
  );
});

test("'Remember on this device' starts where the session was kept last time", () => {
  renderPanel({ remembered: true });
  assert.equal((screen.getByRole("checkbox", { name: /Remember on this device/ }) as HTMLInputElement).checked, true);
  cleanup();
  renderPanel({ remembered: false });
  assert.equal((screen.getByRole("checkbox", { name: /Remember on this device/ }) as HTMLInputElement).checked, false);
});

test("Sign in hands over what the user entered: scope edited, own client, secret, method, remember", () => {
  const { signIns, panel } = renderPanel();
  click(within(panel).getByText("Use my client"));
  type(screen.getByLabelText("Client ID"), "my-client");
  type(screen.getByLabelText("Client secret"), "s3cr3t-value");
  act(() => void fireEvent.change(screen.getByLabelText("Token endpoint authentication"), { target: { value: "client_secret_post" } }));
  type(screen.getByLabelText("Scope"), "files:read");
  click(screen.getByRole("checkbox", { name: /Remember on this device/ }));
  assert.equal(signIns.length, 0, "nothing happens before the click");
  click(signInButton());
  assert.deepEqual(signIns, [
    { clientId: "my-client", clientSecret: "s3cr3t-value", authMethod: "client_secret_post", scope: "files:read", remember: true },
  ]);
});

test("Sign in untouched sends the challenge's scope and no client of the user's", () => {
  const { signIns } = renderPanel({ remembered: true });
  click(signInButton());
  assert.deepEqual(signIns, [{ clientId: "", clientSecret: "", authMethod: "", scope: "files:read files:write", remember: true }]);
});

test("submitting the form (Enter in a field) signs in like the button", () => {
  const { signIns, panel } = renderPanel();
  const form = panel.querySelector("form");
  assert.ok(form);
  act(() => void fireEvent.submit(form));
  assert.equal(signIns.length, 1);
});

test("a failed sign-in shows its message as an alert, and Sign in can be tried again", () => {
  const message = "Sign-in failed at the token request: HTTP 400: invalid_grant (code expired)";
  const { signIns } = renderPanel({ phase: { kind: "failed", message } });
  const alert = screen.getByRole("alert");
  assert.equal(alert.textContent, message);
  assert.equal(screen.getByTestId("oauth-error"), alert);
  assert.equal((signInButton() as HTMLButtonElement).disabled, false);
  click(signInButton());
  assert.equal(signIns.length, 1);
});

test("while working: Sign in is disabled, the form busy, Not now hidden, and the step said", () => {
  const { panel, signIns } = renderPanel({ phase: { kind: "working", what: "Asking the authorization server…" } });
  assert.equal((signInButton() as HTMLButtonElement).disabled, true);
  assert.equal(panel.querySelector("form")?.getAttribute("aria-busy"), "true");
  assert.equal(within(panel).queryByRole("button", { name: "Not now" }), null);
  assert.equal(within(panel).queryByRole("button", { name: "Cancel sign-in" }), null);
  assert.equal(screen.getByRole("status").textContent, "Asking the authorization server…");
  assert.equal(screen.queryByRole("alert"), null);
  click(signInButton());
  assert.equal(signIns.length, 0);
});

test("while waiting for the window: Cancel sign-in stops the wait", () => {
  const { calls, panel } = renderPanel({ phase: { kind: "waiting" } });
  assert.equal((signInButton() as HTMLButtonElement).disabled, true);
  assert.match(screen.getByRole("status").textContent ?? "", /Waiting for the sign-in window/);
  click(within(panel).getByRole("button", { name: "Cancel sign-in" }));
  assert.equal(calls.cancelWait, 1);
  assert.equal(within(panel).queryByRole("button", { name: "Not now" }), null);
});

test("idle: Not now gives up on the refused request; absent when there is nothing to give up", () => {
  const { calls, panel } = renderPanel({ phase: { kind: "idle", note: "Sign-in cancelled." } });
  assert.equal(screen.getByRole("status").textContent, "Sign-in cancelled.");
  assert.equal(within(panel).queryByRole("button", { name: "Cancel sign-in" }), null);
  click(within(panel).getByRole("button", { name: "Not now" }));
  assert.equal(calls.dismiss, 1);
  cleanup();
  renderPanel({ dismissible: false });
  assert.equal(screen.queryByRole("button", { name: "Not now" }), null);
});

test("the OAuth debugger button shows only when there is a log, and opens it", () => {
  renderPanel();
  assert.equal(screen.queryByRole("button", { name: "OAuth debugger" }), null);
  cleanup();
  const { calls } = renderPanel({ debuggable: true });
  const button = screen.getByRole("button", { name: "OAuth debugger" });
  assert.equal(button.getAttribute("aria-haspopup"), "dialog");
  click(button);
  assert.equal(calls.debugger, 1);
});

test("the fields survive a phase change (a failed attempt keeps what was typed)", () => {
  const { rerender, signIns, panel } = renderPanel();
  click(within(panel).getByText("Use my client"));
  type(screen.getByLabelText("Client ID"), "kept-client");
  type(screen.getByLabelText("Scope"), "only:this");
  const props = (phase: OAuthPhase) => (
    <SignInPanel prompt={prompt} phase={phase} remembered={false} onSignIn={(f) => signIns.push(f)} onCancelWait={() => {}} />
  );
  rerender(props({ kind: "working", what: "…" }));
  rerender(props({ kind: "failed", message: "nope" }));
  click(signInButton());
  assert.equal(signIns[0]?.clientId, "kept-client");
  assert.equal(signIns[0]?.scope, "only:this");
});

test("PhaseLine: nothing when idle without a note", () => {
  const { container } = render(<PhaseLine phase={{ kind: "idle" }} />);
  assert.equal(container.textContent, "");
  assert.equal(screen.queryByRole("status"), null);
  assert.equal(screen.queryByRole("alert"), null);
});
