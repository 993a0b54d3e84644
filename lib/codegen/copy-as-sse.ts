/**
 * "Copy as code" for a server on the deprecated HTTP+SSE transport (2024-11-05). There one POST is not a call: the
 * client opens an event stream with GET, whose first event, `endpoint`, names the URL to POST messages to; each POST
 * is only accepted (202), and the answer arrives on the stream. The stream is the session, so a runnable snippet
 * opens it, initializes, sends the message and reads the answer by id. Headers come from ./copy-as-code.ts
 * (wireRequest), the user's own ones as placeholders on the GET and on every POST, as the SDK transport sends them.
 */
import { curlHeader, indentJson, jsHeaders, shellQuote, type HeaderValue } from "./code-text.ts";

export interface SseCodeInput {
  /** The server's event-stream URL (usually …/sse). */
  url: string;
  /** The message as stamped for the wire (legacy: no `_meta`). */
  body: Record<string, unknown>;
  /** The headers of each POST, user placeholders included. */
  headers: [string, HeaderValue][];
  /** The negotiated version, asked for again in the snippet's own initialize. */
  protocolVersion: string;
}

/** How long the shell script waits for the endpoint event and for each answer, in tenths of a second. */
const WAIT_TENTHS = 100;

interface Plan {
  /** The initialize the snippet sends first (absent when the message is an initialize itself). */
  initialize?: Record<string, unknown>;
  /** The id whose answer is printed (absent for a notification). */
  answerId?: string | number;
}

/** The messages around the user's one: a session needs initialize + notifications/initialized before anything else. */
function plan(body: Record<string, unknown>, protocolVersion: string): Plan {
  const id = typeof body.id === "string" || typeof body.id === "number" ? body.id : undefined;
  if (body.method === "initialize") return { answerId: id };
  const initId = id === "initialize" ? "initialize-0" : "initialize";
  return {
    initialize: {
      jsonrpc: "2.0",
      id: initId,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "my-client", version: "1.0.0" } },
    },
    answerId: id,
  };
}

const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };

/** The user's own headers (the placeholders): they go on the stream's GET as well. */
function userHeaders(headers: [string, HeaderValue][]): [string, HeaderValue][] {
  return headers.filter(([, v]) => typeof v !== "string");
}

/** Where a relative `endpoint` resolves: `/path` against the origin, `path` against the URL's directory. */
function bases(url: string): { origin: string; dir: string } {
  try {
    const u = new URL(url);
    return { origin: u.origin, dir: new URL(".", u).href };
  } catch {
    return { origin: url, dir: `${url.replace(/\/[^/]*$/, "")}/` };
  }
}

/** A POSIX sh script: curl holds the stream open in the background while the messages are posted. */
export function sseShellScript(input: SseCodeInput): string {
  const { initialize, answerId } = plan(input.body, input.protocolVersion);
  const { origin, dir } = bases(input.url);
  const getArgs = [
    shellQuote(input.url),
    curlHeader("Accept", "text/event-stream"),
    ...userHeaders(input.headers).map(([n, v]) => curlHeader(n, v)),
  ];
  const postArgs = input.headers.map(([n, v]) => curlHeader(n, v));
  const idText = (id: string | number) => shellQuote(`"id":${JSON.stringify(id)}`);
  return [
    `# Deprecated HTTP+SSE transport (2024-11-05): the answer comes on the event stream,`,
    `# not in the POST's response.`,
    `# 1. Open the stream in the background. Its first event, "endpoint", names the URL to POST to; the session`,
    `#    lasts as long as the stream.`,
    `STREAM=$(mktemp)`,
    `curl -sSN ${getArgs.join(" ")} > "$STREAM" &`,
    `STREAM_PID=$!`,
    `trap 'kill "$STREAM_PID" 2>/dev/null; rm -f "$STREAM"' EXIT`,
    `# first_line PATTERN...: the first stream line holding one of the fixed strings, waiting up to ${WAIT_TENTHS / 10} s.`,
    `first_line() {`,
    `  i=0`,
    `  while [ "$i" -lt ${WAIT_TENTHS} ]; do`,
    `    LINE=$(grep -F "$@" "$STREAM" | head -n 1 | tr -d '\\r')`,
    `    if [ -n "$LINE" ]; then LINE=\${LINE#data:}; printf '%s\\n' "\${LINE# }"; return 0; fi`,
    `    i=$((i + 1)); sleep 0.1`,
    `  done`,
    `  echo "Nothing matching $* on the stream within ${WAIT_TENTHS / 10} s. It holds:" >&2; cat "$STREAM" >&2; return 1`,
    `}`,
    `ENDPOINT=$(first_line -e 'data:') || exit 1`,
    `case "$ENDPOINT" in`,
    `  http://*|https://*) ;;`,
    `  /*) ENDPOINT=${shellQuote(origin)}"$ENDPOINT" ;;`,
    `  *) ENDPOINT=${shellQuote(dir)}"$ENDPOINT" ;;`,
    `esac`,
    `# 2. POST each message there (the server accepts it with 202); its answer is the stream line with its id.`,
    `post() {`,
    `  curl -sSf -o /dev/null -X POST "$ENDPOINT" \\`,
    ...postArgs.map((a) => `    ${a} \\`),
    `    --data-raw "$1"`,
    `}`,
    ...(initialize
      ? [
          `post ${shellQuote(JSON.stringify(initialize))} || exit 1`,
          `first_line -e ${idText(initialize.id as string)}, -e ${idText(initialize.id as string)}} > /dev/null || exit 1`,
          `post ${shellQuote(JSON.stringify(INITIALIZED))} || exit 1`,
        ]
      : []),
    `post ${shellQuote(JSON.stringify(input.body))} || exit 1`,
    answerId === undefined ? `# A notification gets no answer.` : `first_line -e ${idText(answerId)}, -e ${idText(answerId)}}`,
  ].join("\n");
}

/** A Node 18+ ES module with fetch: reads the stream's events itself. */
export function sseFetchSnippet(input: SseCodeInput): string {
  const { initialize, answerId } = plan(input.body, input.protocolVersion);
  const own = userHeaders(input.headers);
  return [
    `// Deprecated HTTP+SSE transport (2024-11-05): the answer comes on the event stream,`,
    `// not in the POST's response.`,
    `// Node 18+, as an ES module (top-level await).`,
    `const url = new URL(${JSON.stringify(input.url)});`,
    `const stream = new AbortController();`,
    `const res = await fetch(url, {`,
    `  headers: {`,
    `    "Accept": "text/event-stream",`,
    ...(own.length ? [jsHeaders(own, "    ")] : []),
    `  },`,
    `  signal: stream.signal,`,
    `});`,
    `if (!res.ok) throw new Error(\`GET \${url}: HTTP \${res.status}\`);`,
    `const events = sseEvents(res.body);`,
    `// The first event, "endpoint", names the URL to POST to; the session lasts as long as the stream.`,
    `const endpoint = new URL((await events.next()).value.data, url);`,
    ``,
    `/** POST one message; the server only accepts it (202), the answer comes on the stream. */`,
    `async function post(message) {`,
    `  const posted = await fetch(endpoint, {`,
    `    method: "POST",`,
    `    headers: {`,
    jsHeaders(input.headers, "      "),
    `    },`,
    `    body: JSON.stringify(message),`,
    `  });`,
    `  if (!posted.ok) throw new Error(\`POST \${endpoint}: HTTP \${posted.status} \${await posted.text()}\`);`,
    `}`,
    ``,
    `/** The answer to request \`id\`: the stream's next "message" event with that id (server requests have a method). */`,
    `async function answer(id) {`,
    `  for (let next = await events.next(); !next.done; next = await events.next()) {`,
    `    const message = next.value.event === "message" ? JSON.parse(next.value.data) : undefined;`,
    `    if (message?.id === id && !("method" in message)) return message;`,
    `  }`,
    `  throw new Error("The stream ended before the answer.");`,
    `}`,
    ``,
    `/** Server-sent events from a response body: one { event, data } per block of lines ended by a blank line. */`,
    `async function* sseEvents(body) {`,
    `  const decoder = new TextDecoder();`,
    `  let buffer = "", event = "message", data = [];`,
    `  for await (const chunk of body) {`,
    `    buffer += decoder.decode(chunk, { stream: true });`,
    `    for (let end = buffer.indexOf("\\n"); end >= 0; end = buffer.indexOf("\\n")) {`,
    `      const line = buffer.slice(0, end).replace(/\\r$/, "");`,
    `      buffer = buffer.slice(end + 1);`,
    `      if (line === "") {`,
    `        if (data.length) yield { event, data: data.join("\\n") };`,
    `        event = "message";`,
    `        data = [];`,
    `      } else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));`,
    `      else if (line.startsWith("event:")) event = line.slice(6).trim();`,
    `    }`,
    `  }`,
    `}`,
    ``,
    ...(initialize
      ? [
          `await post(${indentJson(initialize, "")});`,
          `await answer(${JSON.stringify(initialize.id)});`,
          `await post(${JSON.stringify(INITIALIZED)});`,
        ]
      : []),
    `await post(${indentJson(input.body, "")});`,
    answerId === undefined
      ? `// A notification gets no answer.`
      : `console.log(JSON.stringify(await answer(${JSON.stringify(answerId)}), null, 2));`,
    `stream.abort();`,
  ].join("\n");
}
