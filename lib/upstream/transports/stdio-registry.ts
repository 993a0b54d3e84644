import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { HttpExchange, SseEvent } from "@/lib/mcp/contract";
import { stampMessage } from "@/lib/mcp/meta";
import type { Channel, ExchangeOptions } from "../exchange/exchange-core.ts";
import { unattendedAsker } from "../exchange/server-request-asker.ts";
import type { UpstreamSettings } from "../settings.ts";
import { ProxyError } from "../errors/proxy-error.ts";
import { assertStdioAllowed, type StdioServerSpec } from "./stdio-config.ts";
import { processSingleton } from "../../runtime/process-singleton.ts";

/** stderr kept per process, in bytes (a ring: the oldest lines go first). */
export const STDERR_BUFFER_BYTES = 64 * 1024;
/** stderr lines returned with one response at most. */
const MAX_STDERR_LINES_PER_RESPONSE = 500;
/** Exited processes remembered (for a clear error to the next request), at most. */
const MAX_DEAD_ENTRIES = 32;

/** The last STDERR_BUFFER_BYTES of a process's stderr, as lines, with a read cursor for "new since last time". */
export class StderrRing {
  private lines: string[] = [];
  private bytes = 0;
  /** Sequence number of lines[0]. */
  private first = 0;
  private cursor = 0;
  private partial = "";

  constructor(private readonly maxBytes = STDERR_BUFFER_BYTES) {}

  append(chunk: string): void {
    const parts = (this.partial + chunk).split(/\r?\n/);
    this.partial = parts.pop() ?? "";
    if (this.partial.length > this.maxBytes) {
      parts.push(this.partial);
      this.partial = "";
    }
    for (const line of parts) this.push(line);
  }

  /** Keep an unterminated last line (the process exited mid-line). */
  flush(): void {
    if (this.partial) this.push(this.partial);
    this.partial = "";
  }

  private push(raw: string): void {
    const line = raw.length > this.maxBytes ? `${raw.slice(0, this.maxBytes)}… (line cut)` : raw;
    this.lines.push(line);
    this.bytes += line.length + 1;
    while (this.bytes > this.maxBytes && this.lines.length > 1) {
      this.bytes -= (this.lines.shift() as string).length + 1;
      this.first++;
    }
  }

  /** Lines not returned before (a note first when some were dropped from the ring unread). */
  takeNew(max = MAX_STDERR_LINES_PER_RESPONSE): string[] {
    const out: string[] = [];
    if (this.cursor < this.first) {
      out.push(
        `… ${this.first - this.cursor} earlier stderr lines dropped (only the last ${Math.round(this.maxBytes / 1024)} KB are kept)`,
      );
      this.cursor = this.first;
    }
    const fresh = this.lines.slice(this.cursor - this.first);
    if (fresh.length > max) {
      out.push(`… ${fresh.length - max} stderr lines skipped`);
      fresh.splice(0, fresh.length - max);
    }
    this.cursor = this.first + this.lines.length;
    return [...out, ...fresh];
  }

  /** The last `n` lines, read or not (for error messages). */
  tail(n = 20): string[] {
    return [...this.lines.slice(-n), ...(this.partial ? [this.partial] : [])];
  }
}

/** One exchange's view of the process: the requests it wrote, and where the process's messages for it go. */
interface Lane {
  /** Hand a message from stdout to the exchange; `shared` as in Channel.onmessage. */
  deliver(m: Record<string, unknown>, shared: boolean): void;
  fail(err: unknown): void;
  /** JSON.stringify of the ids of requests written on this lane. */
  ids: Set<string>;
  progressToken?: unknown;
}

type State = "starting" | "live" | "dead" | "stopped";

/** One launched stdio server: its SDK transport, stderr ring, and the requests waiting for responses. */
export class StdioProcess {
  readonly id = randomUUID();
  readonly transport: StdioClientTransport;
  readonly stderr = new StderrRing();
  state: State = "starting";
  exit?: { code: number | null; signal: NodeJS.Signals | null };
  era?: "modern" | "legacy";
  lastUsed = Date.now();
  private child?: ChildProcess;
  /** Exchanges running on this process, oldest first. */
  private readonly lanes = new Set<Lane>();
  idleTimer?: NodeJS.Timeout;

  constructor(
    readonly spec: StdioServerSpec,
    maxMessageBytes: number,
    private readonly onGone: (p: StdioProcess) => void,
  ) {
    this.transport = new StdioClientTransport({
      command: spec.command,
      args: spec.args,
      env: spec.env,
      cwd: spec.cwd,
      stderr: "pipe",
      maxBufferSize: maxMessageBytes,
    });
    // The PassThrough exists before start, so early output (e.g. a crash on launch) is kept.
    this.transport.stderr?.on("data", (d: Buffer | string) => this.stderr.append(typeof d === "string" ? d : d.toString("utf8")));
    // Watch the child from the moment the Client starts the transport, so an exit during the handshake is noticed too.
    // (An instance override: the SDK's disposable-sibling probe needs the transport's class to stay the base class.)
    const start = this.transport.start.bind(this.transport);
    this.transport.start = async () => {
      await start();
      this.watchChild();
    };
  }

  private watchChild(): void {
    // The transport keeps its ChildProcess private; we need it for the exit code and to kill it on app exit.
    this.child ??= (this.transport as unknown as { _process?: ChildProcess })._process;
    const child = this.child;
    if (!child) return;
    if (child.exitCode !== null || child.signalCode !== null) this.markDead(child.exitCode, child.signalCode);
    else child.once("exit", (code, signal) => this.markDead(code, signal));
  }

  get url(): string {
    return `stdio:${this.spec.name}`;
  }

  get pid(): number | undefined {
    return this.child?.pid ?? this.transport.pid ?? undefined;
  }

  /**
   * Take the transport over from the SDK Client after connect: from now on we write messages as the user wrote them
   * and route what the process writes back. The Client is dropped (closing it would stop the process).
   */
  adopt(era: "modern" | "legacy"): void {
    this.era = era;
    if (!this.child) this.watchChild();
    this.transport.onmessage = (m) => this.route(m as unknown as Record<string, unknown>);
    this.transport.onerror = () => undefined;
    this.transport.onclose = () => this.markDead();
    if (this.state === "starting") this.state = "live";
  }

  /** Note the exit: pending requests fail with the exit code and the stderr tail. */
  markDead(code: number | null = this.child?.exitCode ?? null, signal: NodeJS.Signals | null = this.child?.signalCode ?? null): void {
    if (this.state === "dead" || this.state === "stopped") return;
    this.state = "dead";
    this.exit = { code, signal };
    this.stderr.flush();
    const err = this.deadError();
    for (const lane of this.lanes) lane.fail(err);
    this.onGone(this);
  }

  describeExit(): string {
    if (!this.exit) return "exited";
    return this.exit.signal ? `was killed by ${this.exit.signal}` : `exited with code ${this.exit.code ?? "unknown"}`;
  }

  deadError(): ProxyError {
    const tail = this.stderr.tail(20);
    return new ProxyError(
      "upstream-protocol",
      `The stdio server "${this.spec.name}" ${this.describeExit()}.${tail.length ? ` Last stderr lines:\n${tail.join("\n")}` : " It wrote nothing to stderr."}`,
      "Connect again to start a new process.",
    );
  }

  /** Kill synchronously (app exit: no time to wait). */
  killNow(): void {
    try {
      this.child?.kill("SIGTERM");
    } catch {
      // already gone
    }
  }

  /**
   * Messages from stdout: a response goes to the lane that wrote its request; a server request to the newest lane
   * (the call a person most likely watches), or is refused at once when no call runs; progress and cancellations to
   * the lane they name; anything else (log messages) to every lane, marked as shared.
   */
  private route(m: Record<string, unknown>): void {
    const lanes = [...this.lanes];
    const isResponse = ("result" in m || "error" in m) && m.id !== undefined && m.method === undefined;
    if (isResponse) {
      lanes.find((l) => l.ids.has(JSON.stringify(m.id)))?.deliver(m, false);
      return; // a late answer to a request given up on: dropped
    }
    if (typeof m.method === "string" && m.id !== undefined) {
      const newest = lanes.at(-1);
      if (newest) newest.deliver(m, true);
      else void this.refuse(m);
      return;
    }
    const params = m.params as { progressToken?: unknown; requestId?: unknown } | undefined;
    const owner = lanes.find(
      (l) =>
        (params?.progressToken !== undefined && l.progressToken === params.progressToken) ||
        (params?.requestId !== undefined && l.ids.has(JSON.stringify(params.requestId))),
    );
    for (const lane of owner ? [owner] : lanes) lane.deliver(m, owner === undefined);
  }

  /** A server request while no call runs: nobody can answer it, so the server is told at once. */
  private async refuse(m: Record<string, unknown>): Promise<void> {
    const { answer } = await unattendedAsker("no call is running on this stdio process", { betweenCalls: true }).ask(
      m,
      new AbortController().signal,
    );
    await this.transport.send({ jsonrpc: "2.0", id: m.id, ...answer } as never).catch(() => undefined);
  }

  /** A channel for one exchange (runExchange's `open`): lines written to stdin, the messages for it from stdout. */
  channel(): ExchangeOptions["open"] {
    return async () => {
      if (this.state !== "live") throw this.deadError();
      const started = performance.now();
      const records: HttpExchange[] = [];
      const record = (message: Record<string, unknown>): HttpExchange => {
        const x: HttpExchange = {
          transport: "stdio",
          request: { method: "STDIO", url: this.url, headers: [], body: JSON.stringify(message) },
          startedAt: new Date().toISOString(),
          durationMs: 0,
        };
        records.push(x);
        return x;
      };
      let main: HttpExchange | undefined;
      let response: Record<string, unknown> | undefined;
      const events: SseEvent[] = [];
      const channel: Channel = {
        send: async (message, { signal }) => {
          const key = JSON.stringify(message.id);
          if (message.id !== undefined && [...this.lanes].some((l) => l !== lane && l.ids.has(key))) {
            throw new ProxyError(
              "bad-request",
              `A request with id ${key} is still waiting for its response on this stdio process; use another id.`,
            );
          }
          main = record(message);
          if (message.id !== undefined) lane.ids.add(key);
          lane.progressToken = (message.params as { _meta?: { progressToken?: unknown } } | undefined)?._meta?.progressToken;
          // Given up before the answer (timeout, cancel): tell the server to stop, the stdio counterpart of closing the HTTP stream.
          signal.addEventListener(
            "abort",
            () => {
              if (!response && message.id !== undefined && this.state === "live")
                void this.transport
                  .send(this.cancelFor(message.id, (signal.reason as Error)?.message ?? "cancelled") as never)
                  .catch(() => undefined);
            },
            { once: true },
          );
          this.touch();
          await this.transport.send(message as never);
        },
        reply: async (message) => {
          record(message);
          await this.transport.send(message as never);
        },
        exchanges: () => {
          if (main) {
            main.durationMs = performance.now() - started;
            main.response = {
              status: 0,
              statusText: "stdout",
              headers: [],
              sseEvents: events,
              ...(response ? { body: JSON.stringify(response) } : {}),
            };
          }
          return records;
        },
        release: async () => {
          this.lanes.delete(lane);
          this.touch();
        },
      };
      const lane: Lane = {
        ids: new Set(),
        deliver(m, shared) {
          if (m.method === undefined && ("result" in m || "error" in m)) response = m;
          else events.push({ atMs: Math.round(performance.now() - started), event: "stdout", data: JSON.stringify(m) });
          channel.onmessage?.(m, shared);
        },
        fail: (err) => channel.onerror?.(err),
      };
      this.lanes.add(lane);
      return channel;
    };
  }

  /** Stamped `notifications/cancelled` for a request given up on. */
  private cancelFor(requestId: unknown, reason: string): Record<string, unknown> {
    return stampMessage({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId, reason } }, this.era ?? "legacy", () => 0)
      .message;
  }

  touch(): void {
    this.lastUsed = Date.now();
  }

  get busy(): boolean {
    return this.lanes.size > 0;
  }
}

export interface RegistryOptions {
  maxProcesses: number;
  idleMs: number;
  /** Largest single message read from stdout, in bytes. */
  maxMessageBytes: number;
}

/**
 * The stdio server processes Toolscope launched (local mode only). Bounded: at most `maxProcesses` run at once;
 * each is stopped on disconnect, after `idleMs` unused, and on app exit; an exit is noticed and remembered so the
 * next request gets the exit code and the stderr tail. Processes are only ever created from a configured spec.
 */
export class StdioRegistry {
  private readonly entries = new Map<string, StdioProcess>();
  /** Ids of processes stopped to make room for a newer one (bounded, oldest dropped): their next request says so. */
  private readonly evicted = new Set<string>();

  constructor(readonly opts: RegistryOptions) {}

  /** Processes starting or running (the ones the cap counts). */
  get running(): number {
    let n = 0;
    for (const p of this.entries.values()) if (p.state === "starting" || p.state === "live") n++;
    return n;
  }

  /**
   * A new (not yet started) process for a configured server; the SDK Client starts it on connect. At the cap, the
   * least recently used process with nothing in flight is stopped to make room: the playground never hears of a
   * closed tab, so refusing would leave a developer locked out by processes nobody uses any more until they idle
   * out. Only when every process is starting or answering is the new one refused.
   */
  create(spec: StdioServerSpec): StdioProcess {
    if (this.running >= this.opts.maxProcesses) {
      const oldest = this.leastRecentlyUsedIdle();
      if (!oldest) {
        throw new ProxyError(
          "rate-limited",
          `${this.running} stdio servers are already running, each in the middle of a request: the most allowed (TOOLSCOPE_STDIO_MAX_PROCESSES=${this.opts.maxProcesses}).`,
          "Wait for a call to finish, or disconnect a server; raise TOOLSCOPE_STDIO_MAX_PROCESSES to run more at once.",
        );
      }
      this.evicted.add(oldest.id);
      if (this.evicted.size > MAX_DEAD_ENTRIES) this.evicted.delete(this.evicted.values().next().value!);
      void this.stop(oldest.id);
    }
    const proc = new StdioProcess(spec, this.opts.maxMessageBytes, (p) => this.onGone(p));
    this.entries.set(proc.id, proc);
    this.armIdle(proc);
    return proc;
  }

  /** The live process unused the longest that has no request in flight (the one the cap may stop). */
  private leastRecentlyUsedIdle(): StdioProcess | undefined {
    let oldest: StdioProcess | undefined;
    for (const p of this.entries.values()) {
      if (p.state !== "live" || p.busy) continue;
      if (!oldest || p.lastUsed < oldest.lastUsed) oldest = p;
    }
    return oldest;
  }

  /** The process of a descriptor if it is still known (running or exited), without touching it. */
  find(id: string, url: string): StdioProcess | undefined {
    const proc = this.entries.get(id);
    return proc && proc.url === url ? proc : undefined;
  }

  /** The live process of a descriptor, or a clear error (unknown id, another server's id, exited). */
  get(id: string | undefined, url: string): StdioProcess {
    const proc = id ? this.entries.get(id) : undefined;
    if (id && this.evicted.has(id)) {
      throw new ProxyError(
        "upstream-protocol",
        `No running process for ${url} with this connection: it was stopped to make room for a newer one, as TOOLSCOPE_STDIO_MAX_PROCESSES=${this.opts.maxProcesses} were running and this one was the longest unused.`,
        "Connect again to start a new process, or raise TOOLSCOPE_STDIO_MAX_PROCESSES.",
      );
    }
    if (!proc || proc.url !== url || proc.state === "stopped") {
      throw new ProxyError(
        "upstream-protocol",
        `No running process for ${url} with this connection: it was stopped (disconnected, idle for ${Math.round(this.opts.idleMs / 1000)} s, or Toolscope restarted).`,
        "Connect again to start a new process.",
      );
    }
    if (proc.state === "dead") throw proc.deadError();
    proc.touch();
    this.armIdle(proc);
    return proc;
  }

  /** Stop a process (stdin closed, then SIGTERM, then SIGKILL: the SDK transport's close) and forget it. */
  async stop(id: string, url?: string): Promise<StdioProcess | undefined> {
    const proc = this.entries.get(id);
    if (!proc || (url !== undefined && proc.url !== url)) return undefined;
    this.entries.delete(id);
    clearTimeout(proc.idleTimer);
    const wasLive = proc.state !== "dead";
    proc.state = "stopped";
    if (wasLive) await proc.transport.close().catch(() => undefined);
    return proc;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.entries.keys()].map((id) => this.stop(id)));
  }

  /** Synchronous kill of every child (for process exit, when nothing async runs any more). */
  killAllNow(): void {
    for (const p of this.entries.values()) p.killNow();
  }

  private armIdle(proc: StdioProcess): void {
    clearTimeout(proc.idleTimer);
    proc.idleTimer = setTimeout(() => {
      if (proc.busy && proc.state === "live") this.armIdle(proc);
      else void this.stop(proc.id);
    }, this.opts.idleMs);
    proc.idleTimer.unref();
  }

  private onGone(proc: StdioProcess): void {
    // Keep a bounded number of exited processes so their next request learns why.
    const dead = [...this.entries.values()].filter((p) => p.state === "dead");
    for (const p of dead.slice(0, Math.max(0, dead.length - MAX_DEAD_ENTRIES))) void this.stop(p.id);
    this.armIdle(proc);
  }
}

/** Kill every child when the app exits (SIGTERM/SIGINT keep their default behaviour: we re-raise when we are the only listener). */
function installExitHandlers(registry: StdioRegistry): void {
  process.once("exit", () => registry.killAllNow());
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    const handler = () => {
      registry.killAllNow();
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
    };
    process.once(signal, handler);
  }
}

/** The process-wide registry (one per server process, even across bundles). Refuses in hosted mode. */
export function stdioRegistry(
  cfg: Pick<UpstreamSettings, "mode" | "stdioMaxProcesses" | "stdioIdleMs" | "maxResponseBytes">,
): StdioRegistry {
  assertStdioAllowed(cfg);
  return processSingleton("stdio-registry", () => {
    const registry = new StdioRegistry({
      maxProcesses: cfg.stdioMaxProcesses,
      idleMs: cfg.stdioIdleMs,
      maxMessageBytes: cfg.maxResponseBytes,
    });
    installExitHandlers(registry);
    return registry;
  });
}
