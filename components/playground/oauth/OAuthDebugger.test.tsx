import { afterEach, test } from "node:test";
import assert from "node:assert/strict";
import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { HttpExchange, ProxyErrorBody } from "@/lib/mcp/contract";
import type { OAuthChallenge, OAuthStep } from "@/lib/mcp/oauth-contract";
import { maskValue } from "@/lib/mcp/secrets";
import { maskCode, startFlowLog, withFlowFailure, type OAuthFlowLog } from "@/lib/playground/oauth/oauth-flow-log";
import { OAuthDebugger } from "./OAuthDebugger";

afterEach(cleanup);

const MCP = "https://mcp.example.com/mcp";
const AS = "https://auth.example.com";

// The credentials of the flow: none of them may reach the page.
const ACCESS_TOKEN = "eyJhbGciOiJSUzI1NiJ9.ACCESS-payload.signature-xyz";
const REFRESH_TOKEN = "rt_9f8e7d6c5b4a3210REFRESH";
const AUTH_CODE = "SplxlOBeZQQYbYS6WxSbIA-authcode";
const CODE_VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

function exchange(
  method: string,
  url: string,
  status: number,
  body: unknown,
  over: { reqHeaders?: [string, string][]; reqBody?: string; resHeaders?: [string, string][] } = {},
): HttpExchange {
  return {
    request: { method, url, headers: over.reqHeaders ?? [["accept", "application/json"]], ...(over.reqBody ? { body: over.reqBody } : {}) },
    response: {
      status,
      statusText: status === 200 ? "OK" : status === 201 ? "Created" : status === 400 ? "Bad Request" : "Unauthorized",
      headers: over.resHeaders ?? [["content-type", "application/json"]],
      body: typeof body === "string" ? body : JSON.stringify(body, null, 2),
      sseEvents: [],
    },
    startedAt: "2026-01-01T10:00:00.000Z",
    durationMs: 12,
  };
}

const challenge: OAuthChallenge = {
  status: 401,
  scheme: "Bearer",
  resourceMetadataUrl: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
  scope: "files:read",
};

const refusedCall = exchange(
  "POST",
  MCP,
  401,
  { error: "unauthorized" },
  {
    resHeaders: [
      ["www-authenticate", `Bearer resource_metadata="${challenge.resourceMetadataUrl}", scope="files:read"`],
      ["content-type", "application/json"],
    ],
  },
);

/** The steps of the first POST /api/oauth/authorize, as lib/server/oauth/oauth-steps.ts describes them. */
const discoverySteps: OAuthStep[] = [
  {
    kind: "resource-metadata",
    title: `Protected resource metadata: GET ${challenge.resourceMetadataUrl} → HTTP 200`,
    exchange: exchange("GET", challenge.resourceMetadataUrl!, 200, { resource: MCP, authorization_servers: [AS] }),
    checks: [`resource: ${MCP}`, `authorization_servers: ${AS}`],
    ok: true,
  },
  {
    kind: "authorization-server-metadata",
    title: `Authorization server metadata: GET ${AS}/.well-known/oauth-authorization-server → HTTP 200`,
    exchange: exchange("GET", `${AS}/.well-known/oauth-authorization-server`, 200, {
      issuer: AS,
      code_challenge_methods_supported: ["S256"],
      registration_endpoint: `${AS}/register`,
    }),
    checks: [`issuer: ${AS}`, "PKCE S256 supported", "Dynamic Client Registration offered"],
    ok: true,
  },
  {
    kind: "registration",
    title: `Client registration: POST ${AS}/register → HTTP 201`,
    exchange: exchange("POST", `${AS}/register`, 201, { client_id: "toolscope-123", token_endpoint_auth_method: "none" }),
    checks: ["Registered as client_id toolscope-123", "Public client (no secret)"],
    ok: true,
  },
  {
    kind: "authorization-request",
    title: `Authorization request: send the user to ${AS}/authorize`,
    checks: [
      "client_id: toolscope-123",
      "PKCE: code_challenge_method S256",
      `resource (RFC 8707): ${MCP}`,
      "scope: files:read",
      "state: set, checked on the way back",
    ],
    ok: true,
  },
];

const authorizationUrl =
  `${AS}/authorize?response_type=code&client_id=toolscope-123&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM` +
  `&code_challenge_method=S256&redirect_uri=${encodeURIComponent("http://localhost:3000/oauth/callback")}` +
  `&state=st-4711&scope=files%3Aread&resource=${encodeURIComponent(MCP)}`;

/** The token exchange as the server records it: the code, verifier and tokens masked. */
const tokenExchange = exchange(
  "POST",
  `${AS}/token`,
  200,
  {
    access_token: maskValue(ACCESS_TOKEN),
    token_type: "Bearer",
    expires_in: 3600,
    refresh_token: maskValue(REFRESH_TOKEN),
    scope: "files:read",
  },
  {
    reqHeaders: [["content-type", "application/x-www-form-urlencoded"]],
    reqBody: `grant_type=authorization_code&code=${maskValue(AUTH_CODE)}&code_verifier=${maskValue(CODE_VERIFIER)}&client_id=toolscope-123`,
  },
);

/** The steps of the second POST /api/oauth/authorize (with the callback). */
const redeemSteps: OAuthStep[] = [
  {
    kind: "callback",
    title: "Callback: back at Toolscope with an authorization code",
    checks: ["state: matches", `iss: ${AS} (compared with the issuer discovered)`],
    ok: true,
  },
  {
    kind: "token",
    title: `Token request: POST ${AS}/token → HTTP 200`,
    exchange: tokenExchange,
    checks: ["token_type: Bearer", "expires in 3600 s", "granted scope: files:read", "A refresh token was issued"],
    ok: true,
  },
];

/** A whole successful flow, built the way useOAuth builds it. */
function successLog(): OAuthFlowLog {
  const refusal: ProxyErrorBody["error"] = {
    kind: "upstream-auth",
    message: "The server wants authorization.",
    auth: challenge,
    exchanges: [refusedCall],
  };
  let log = startFlowLog(MCP, Date.UTC(2026, 0, 1, 10, 0, 0), refusal);
  log = { ...log, steps: [...log.steps, ...discoverySteps] };
  log = { ...log, authorizationUrl, authorizationAt: log.steps.length };
  log = { ...log, callbackAt: log.steps.length, callback: { code: maskCode(AUTH_CODE), stateMatched: true, iss: AS } };
  log = { ...log, steps: [...log.steps, ...redeemSteps] };
  return {
    ...log,
    retried: {
      what: "tools/list",
      ok: true,
      summary: "HTTP 200: 3 tools",
      exchanges: [
        exchange(
          "POST",
          MCP,
          200,
          { jsonrpc: "2.0", id: 2, result: { tools: [] } },
          { reqHeaders: [["authorization", maskValue(`Bearer ${ACCESS_TOKEN}`)]] },
        ),
      ],
    },
  };
}

function renderDebugger(log: OAuthFlowLog | null) {
  let closed = 0;
  render(<OAuthDebugger log={log} onClose={() => closed++} />);
  const dialog = screen.getByTestId("oauth-debugger") as HTMLDialogElement;
  return { dialog, closed: () => closed };
}

/** The flow's entries in order: each one's kind line (if any), title, verdict and checks. */
function entries(dialog: HTMLElement) {
  const list = within(dialog).getByRole("list", { name: "Steps of the flow" });
  return [...list.children].map((li) => {
    const h3 = li.querySelector("h3");
    const kind = h3?.previousElementSibling?.tagName === "P" ? h3.previousElementSibling.textContent : undefined;
    const checks = within(li as HTMLElement).queryByRole("list", { name: "Checks" });
    return {
      kind,
      title: h3?.firstElementChild?.textContent ?? "",
      verdict: h3?.children[1]?.textContent,
      checks: checks ? [...checks.children].map((c) => c.textContent) : [],
      li: li as HTMLElement,
    };
  });
}

/** The name/value rows of an entry (challenge, authorization request, callback); not the header tables of its exchanges. */
function rows(li: HTMLElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const dt of li.querySelectorAll('dl:not([data-testid="header-table"]) > div > dt'))
    out[dt.textContent ?? ""] = dt.nextElementSibling?.textContent ?? "";
  return out;
}

test("is a modal dialog named 'OAuth debugger', naming the server", () => {
  const { dialog } = renderDebugger(successLog());
  assert.equal(dialog.open, true);
  assert.equal(screen.getByRole("dialog", { name: "OAuth debugger" }), dialog);
  assert.match(dialog.textContent ?? "", /The latest flow for https:\/\/mcp\.example\.com\/mcp, started /);
  assert.match(dialog.textContent ?? "", /Tokens, codes and secrets are masked\./);
  assert.equal(within(dialog).queryByRole("alert"), null, "a flow that worked has no failure");
});

test("the entries come in the flow's order, each with its heading and verdict", () => {
  const { dialog } = renderDebugger(successLog());
  const got = entries(dialog).map((e) => [e.kind ?? null, e.title, e.verdict]);
  // Server steps are named by their titles (no kind line above them); the authorization request and the callback are
  // the browser's own entries (the server's summaries of them are not listed twice).
  assert.deepEqual(got, [
    [null, "Refusal: the server answered HTTP 401", "failed"],
    [null, "Protected resource metadata: GET https://mcp.example.com/.well-known/oauth-protected-resource/mcp → HTTP 200", "ok"],
    [null, "Authorization server metadata: GET https://auth.example.com/.well-known/oauth-authorization-server → HTTP 200", "ok"],
    [null, "Client registration: POST https://auth.example.com/register → HTTP 201", "ok"],
    [null, "Authorization request: you were sent to the authorization server", "ok"],
    [null, "Callback: the authorization server sent you back", "ok"],
    [null, "Token request: POST https://auth.example.com/token → HTTP 200", "ok"],
    [null, "Sent again with the token: tools/list", "ok"],
  ]);
});

test("a step whose title does not start with its name gets the name above it", () => {
  const log = successLog();
  log.steps = [{ kind: "revocation", title: "POST https://auth.example.com/revoke → HTTP 200", checks: [], ok: true }];
  const { dialog } = renderDebugger(log);
  assert.equal(entries(dialog).find((e) => e.title.startsWith("POST"))?.kind, "Token revocation");
});

test("each step lists its checks, in order", () => {
  const { dialog } = renderDebugger(successLog());
  const all = entries(dialog);
  const byTitle = (prefix: string) => all.find((e) => e.title.startsWith(prefix));
  assert.deepEqual(byTitle("Protected resource metadata")?.checks, [
    "resource: https://mcp.example.com/mcp",
    "authorization_servers: https://auth.example.com",
  ]);
  assert.deepEqual(byTitle("Authorization server metadata")?.checks, [
    "issuer: https://auth.example.com",
    "PKCE S256 supported",
    "Dynamic Client Registration offered",
  ]);
  assert.deepEqual(byTitle("Token request")?.checks, [
    "token_type: Bearer",
    "expires in 3600 s",
    "granted scope: files:read",
    "A refresh token was issued",
  ]);
  assert.deepEqual(byTitle("Refusal")?.checks, [], "the refusal shows rows, not checks");
});

test("the refusal shows the challenge as sent, with the refused call's exchange", () => {
  const { dialog } = renderDebugger(successLog());
  const refusal = entries(dialog)[0]!.li;
  assert.deepEqual(rows(refusal), {
    scheme: "Bearer",
    resource_metadata: "https://mcp.example.com/.well-known/oauth-protected-resource/mcp",
    scope: "files:read",
  });
  assert.ok(within(refusal).getByText("HTTP exchanges of the refused call"));
  assert.match(within(refusal).getByTestId("http-exchange").textContent ?? "", /www-authenticate/);
});

test("the authorization request shows its endpoint and query parameters, none masked", () => {
  const { dialog } = renderDebugger(successLog());
  const authz = entries(dialog).find((e) => e.title.endsWith("you were sent to the authorization server"))!.li;
  assert.ok(within(authz).getByText("https://auth.example.com/authorize"), "the endpoint without its query");
  assert.deepEqual(rows(authz), {
    response_type: "code",
    client_id: "toolscope-123",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    redirect_uri: "http://localhost:3000/oauth/callback",
    state: "st-4711",
    scope: "files:read",
    resource: "https://mcp.example.com/mcp",
  });
});

test("the callback entry shows the code masked and says the state matched", () => {
  const { dialog } = renderDebugger(successLog());
  const cb = entries(dialog).find((e) => e.title === "Callback: the authorization server sent you back")!;
  const r = rows(cb.li);
  assert.equal(r.code, "Splx… (31 characters)");
  assert.equal(r.state, "matches the sign-in under way");
  assert.equal(r.iss, "https://auth.example.com");
  assert.equal(r.error, undefined);
  assert.doesNotMatch(cb.li.textContent ?? "", new RegExp(AUTH_CODE));
});

test("a callback whose state does not match, or that carries an error, is marked failed", () => {
  const base = successLog();
  renderDebugger({ ...base, callback: { code: maskCode("short1"), stateMatched: false } });
  let cb = entries(screen.getByTestId("oauth-debugger")).find((e) => e.title.startsWith("Callback: the authorization"))!;
  assert.equal(cb.verdict, "failed");
  assert.deepEqual(rows(cb.li), {
    code: "•••••• (6 characters)",
    state: "does NOT match the sign-in under way",
    iss: "(not sent)",
  });
  cleanup();
  renderDebugger({ ...base, callback: { stateMatched: true, error: "access_denied", errorDescription: "The user said no" } });
  cb = entries(screen.getByTestId("oauth-debugger")).find((e) => e.title.startsWith("Callback: the authorization"))!;
  assert.equal(cb.verdict, "failed");
  assert.equal(rows(cb.li).error, "access_denied — The user said no");
  assert.equal(rows(cb.li).code, "(none)");
});

test("no token, code or verifier appears anywhere in the page, though every exchange is there (masked)", () => {
  const { dialog } = renderDebugger(successLog());
  const text = dialog.textContent ?? "";
  const html = dialog.outerHTML;
  for (const secret of [ACCESS_TOKEN, REFRESH_TOKEN, AUTH_CODE, CODE_VERIFIER]) {
    assert.ok(!text.includes(secret), `${secret.slice(0, 8)}… is not in the text`);
    assert.ok(!html.includes(secret), `${secret.slice(0, 8)}… is not in the markup`);
  }
  // The exchanges are rendered (collapsed), with the masks standing for the credentials.
  const token = entries(dialog).find((e) => e.title.startsWith("Token request"))!.li;
  const tokenText = within(token).getByTestId("http-exchange").textContent ?? "";
  assert.match(tokenText, /"access_token": "•••• \(\d+ chars hidden\)"/);
  assert.match(tokenText, /"refresh_token": "•••• \(\d+ chars hidden\)"/);
  assert.match(tokenText, /code=•••• \(\d+ chars hidden\)/);
  const retried = entries(dialog).at(-1)!.li;
  assert.match(within(retried).getByTestId("http-exchange").textContent ?? "", /Bearer •••• \(\d+ chars hidden\)/);
  assert.match(retried.textContent ?? "", /HTTP 200: 3 tools/);
});

test("a failed flow says first which step failed and why, before the steps", () => {
  const refusal: ProxyErrorBody["error"] = { kind: "upstream-auth", message: "Sign-in needed.", auth: challenge };
  const refusedToken: OAuthStep = {
    kind: "token",
    title: `Token request: POST ${AS}/token → HTTP 400`,
    exchange: exchange("POST", `${AS}/token`, 400, { error: "invalid_grant", error_description: "The code has expired" }),
    checks: ["HTTP 400: invalid_grant (The code has expired)"],
    ok: false,
  };
  const log = withFlowFailure(startFlowLog(MCP, Date.now(), refusal), {
    kind: "oauth-flow",
    message: "Sign-in failed at the token request: HTTP 400: invalid_grant (The code has expired)",
    hint: "The authorization server refused the code: check the client's credentials and authentication method, then sign in again.",
    oauth: { failedStep: "token", steps: [...discoverySteps.slice(0, 2), refusedToken] },
  });
  const { dialog } = renderDebugger(log);
  const alert = within(dialog).getByRole("alert");
  assert.equal(alert.firstElementChild?.textContent, "Failed at: Token request");
  assert.equal(
    alert.lastElementChild?.textContent,
    "Sign-in failed at the token request: HTTP 400: invalid_grant (The code has expired) The authorization server refused the code: check the client's credentials and authentication method, then sign in again.",
  );
  const list = within(dialog).getByRole("list", { name: "Steps of the flow" });
  assert.ok(alert.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING, "the failure comes before the steps");
  const got = entries(dialog);
  assert.deepEqual(
    got.map((e) => e.verdict),
    ["failed", "ok", "ok", "failed"],
  );
  assert.deepEqual(got.at(-1)?.checks, ["HTTP 400: invalid_grant (The code has expired)"]);
});

test("failures outside the server's steps are named in words", () => {
  const cases: [NonNullable<OAuthFlowLog["failure"]>["step"], string][] = [
    ["popup", "Sign-in window"],
    ["state-check", "State check of the callback"],
    ["consent", "Consent at the authorization server"],
    ["retry", "Sending the request again"],
    ["resource-metadata", "Protected resource metadata"],
  ];
  for (const [step, label] of cases) {
    renderDebugger({ server: MCP, startedAt: Date.now(), steps: [], failure: { step, message: "Because." } });
    assert.equal(screen.getByRole("alert").firstElementChild?.textContent, `Failed at: ${label}`);
    cleanup();
  }
});

test("a log restored without positions lists the authorization request and callback after the steps", () => {
  const log: OAuthFlowLog = {
    server: MCP,
    startedAt: Date.now(),
    steps: discoverySteps.slice(0, 1),
    authorizationUrl,
    callback: { code: maskCode(AUTH_CODE), stateMatched: true },
  };
  const { dialog } = renderDebugger(log);
  assert.deepEqual(
    entries(dialog).map((e) => e.title),
    [
      discoverySteps[0]!.title,
      "Authorization request: you were sent to the authorization server",
      "Callback: the authorization server sent you back",
    ],
  );
});

test("with no flow yet it says so", () => {
  const { dialog } = renderDebugger(null);
  assert.match(dialog.textContent ?? "", /No OAuth flow has run for this server in this page yet\./);
  assert.equal(within(dialog).queryByRole("list", { name: "Steps of the flow" }), null);
});

test("closes with its Close button and with Escape", () => {
  const { dialog, closed } = renderDebugger(successLog());
  act(() => void fireEvent.click(within(dialog).getByRole("button", { name: "Close" })));
  assert.equal(closed(), 1);
  act(() => void fireEvent(dialog, new window.Event("cancel", { cancelable: true })));
  assert.equal(closed(), 2);
});
