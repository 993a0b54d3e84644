/**
 * Tests only: the task store behind the tasks fixture server (tasks-server.ts), for the 2026-07-28 tasks extension
 * (`io.modelcontextprotocol/tasks`, SEP-2663). createMcpHandler builds a fresh SDK server for every HTTP request, so
 * everything that outlives one request lives here, one store per started fixture: each task's state, its pending
 * questions and the answers to them, the work still running, and a log of the requests that touched a task (so a test
 * can check that a client honoured `pollIntervalMs`).
 *
 * Bounded: at most `maxTasks` tasks (the oldest finished ones make room first), each forgotten `ttlMs` after it was
 * created. Expiry is checked whenever the store is used, never by a timer, so a store keeps no test process alive.
 */
import { randomUUID } from "node:crypto";
import { ProtocolError, type CallToolResult, type InputRequest } from "@modelcontextprotocol/server";

export type TaskStatus = "working" | "input_required" | "completed" | "cancelled" | "failed";

/** A task's JSON-RPC error, inlined by tasks/get when the task failed (protocol errors only, never tool errors). */
export interface TaskError {
  code: number;
  message: string;
  data?: unknown;
}

/** The Task fields every task answer carries (CreateTaskResult and tasks/get alike). */
export interface WireTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs: number;
}

/** tasks/get's answer: the Task, plus what its status calls for. */
export interface DetailedTask extends WireTask {
  result?: CallToolResult;
  error?: TaskError;
  inputRequests?: Record<string, InputRequest>;
}

export type TaskMethod = "tools/call" | "tasks/get" | "tasks/update" | "tasks/cancel";

/** One request that touched a task, as the server saw it arrive. */
export interface TaskLogEntry {
  taskId: string;
  method: TaskMethod;
  /** Arrival, in ms since the epoch. */
  at: number;
  /** tasks/get: the time since the previous tasks/get of the same task, or since the task was created. */
  sinceLastPollMs?: number;
  /** The routing headers as sent (the tasks methods MUST carry `Mcp-Method` and `Mcp-Name: <taskId>`). */
  mcpMethod: string | null;
  mcpName: string | null;
  /** tasks/update: the keys the client answered, and which of them were pending (the rest are ignored). */
  keys?: string[];
  accepted?: string[];
  /** Whether the id named a task the server still held. */
  known: boolean;
  /** The task's status once the request was handled. */
  status?: TaskStatus;
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "cancelled", "failed"]);

/** Why a task's work was stopped: a client's tasks/cancel ends the task `cancelled`; expiry or shutdown drops it. */
class TaskCancelled extends Error {}
class TaskDropped extends Error {}

/** What a task's work sees of its task. */
export interface TaskJob {
  readonly signal: AbortSignal;
  /** Waits `ms`; rejects as soon as the task is cancelled, so cancelled work ends at once. */
  sleep(ms: number): Promise<void>;
  /** The status message a polling client shows while the task works. */
  progress(message: string): void;
  /**
   * Parks the task in `input_required` with these questions (keyed, as tasks/get shows them) and resolves with every
   * answer once the client has answered them all through tasks/update.
   */
  ask(requests: Record<string, InputRequest>, statusMessage?: string): Promise<Record<string, unknown>>;
}

export interface TaskSettings {
  ttlMs: number | null;
  pollIntervalMs: number;
  statusMessage?: string;
}

/** One task: its state, and the hooks its running work uses. */
export class TaskRun {
  readonly taskId = randomUUID();
  readonly createdAt: number;
  status: TaskStatus = "working";
  statusMessage?: string;
  lastUpdatedAt: number;
  result?: CallToolResult;
  error?: TaskError;
  readonly ttlMs: number | null;
  readonly pollIntervalMs: number;
  /** The last tasks/get, for the log's `sinceLastPollMs`. */
  lastPollAt?: number;
  private readonly pending = new Map<string, InputRequest>();
  // Keys are unique for the task's lifetime: an answered key is never asked again, and answering it twice is ignored.
  private readonly everAsked = new Set<string>();
  private readonly answers = new Map<string, unknown>();
  private waiter?: { keys: string[]; resolve: (answers: Record<string, unknown>) => void };
  private readonly stop = new AbortController();

  constructor(
    readonly tool: string,
    settings: TaskSettings,
    private readonly now: () => number,
  ) {
    this.createdAt = this.lastUpdatedAt = now();
    this.ttlMs = settings.ttlMs;
    this.pollIntervalMs = settings.pollIntervalMs;
    this.statusMessage = settings.statusMessage;
  }

  get terminal(): boolean {
    return TERMINAL.has(this.status);
  }

  expired(at: number): boolean {
    return this.ttlMs !== null && at >= this.createdAt + this.ttlMs;
  }

  wire(): WireTask {
    return {
      taskId: this.taskId,
      status: this.status,
      ...(this.statusMessage !== undefined ? { statusMessage: this.statusMessage } : {}),
      createdAt: new Date(this.createdAt).toISOString(),
      lastUpdatedAt: new Date(this.lastUpdatedAt).toISOString(),
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
  }

  /** What tasks/get answers: `result` once completed, `error` once failed, the outstanding questions while waiting. */
  detailed(): DetailedTask {
    const task: DetailedTask = this.wire();
    if (this.status === "completed" && this.result) task.result = this.result;
    if (this.status === "failed" && this.error) task.error = this.error;
    if (this.status === "input_required") task.inputRequests = Object.fromEntries(this.pending);
    return task;
  }

  /** Runs the task's work; its outcome settles the task (unless the task was dropped meanwhile). */
  start(work: (job: TaskJob) => Promise<CallToolResult>): void {
    const job: TaskJob = {
      signal: this.stop.signal,
      sleep: (ms) => this.sleep(ms),
      progress: (message) => {
        if (this.terminal) return;
        this.statusMessage = message;
        this.touch();
      },
      ask: (requests, statusMessage) => this.ask(requests, statusMessage),
    };
    void (async () => {
      try {
        const result = await work(job);
        this.settle("completed", { result, message: "The task has completed." });
      } catch (err) {
        const reason: unknown = this.stop.signal.reason;
        if (this.stop.signal.aborted && reason instanceof TaskCancelled) this.settle("cancelled", { message: reason.message });
        else if (this.stop.signal.aborted) return;
        else this.settle("failed", { error: taskError(err) });
      }
    })();
  }

  /**
   * Records answers to pending questions. Unknown or already answered keys are ignored (the spec says so); the task
   * goes back to `working` once every question it waits on is answered. Returns the keys taken.
   */
  answer(responses: Record<string, unknown>): string[] {
    const taken: string[] = [];
    if (this.terminal) return taken;
    for (const [key, value] of Object.entries(responses)) {
      if (!this.pending.has(key)) continue;
      this.pending.delete(key);
      this.answers.set(key, value);
      taken.push(key);
    }
    const waiter = this.waiter;
    if (taken.length > 0) this.touch();
    if (waiter && waiter.keys.every((k) => this.answers.has(k))) {
      this.waiter = undefined;
      this.status = "working";
      this.touch();
      waiter.resolve(Object.fromEntries(waiter.keys.map((k) => [k, this.answers.get(k)])));
    }
    return taken;
  }

  /** A client's tasks/cancel: cooperative, the work stops at its next wait and the task ends `cancelled`. */
  cancel(): void {
    if (!this.terminal && !this.stop.signal.aborted) this.stop.abort(new TaskCancelled("Cancelled at the client's request."));
  }

  /** Expiry or shutdown: the work stops and the task is gone. */
  drop(): void {
    if (!this.stop.signal.aborted) this.stop.abort(new TaskDropped("The task is gone."));
  }

  private touch(): void {
    this.lastUpdatedAt = Math.max(this.now(), this.lastUpdatedAt);
  }

  private settle(status: TaskStatus, outcome: { result?: CallToolResult; error?: TaskError; message?: string }): void {
    // Terminal statuses are immutable: whatever the work does after a cancel no longer changes the task.
    if (this.terminal) return;
    this.status = status;
    this.pending.clear();
    if (outcome.result) this.result = outcome.result;
    if (outcome.error) this.error = outcome.error;
    if (outcome.message) this.statusMessage = outcome.message;
    else if (status === "failed") this.statusMessage = outcome.error?.message;
    this.touch();
  }

  private sleep(ms: number): Promise<void> {
    const signal = this.stop.signal;
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as Error);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal.reason as Error);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  private ask(requests: Record<string, InputRequest>, statusMessage?: string): Promise<Record<string, unknown>> {
    const signal = this.stop.signal;
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    const keys = Object.keys(requests);
    for (const key of keys) {
      if (this.everAsked.has(key)) throw new Error(`Input key ${key} was already used by this task.`);
      this.everAsked.add(key);
      this.pending.set(key, requests[key]);
    }
    this.status = "input_required";
    if (statusMessage !== undefined) this.statusMessage = statusMessage;
    this.touch();
    return new Promise((resolve, reject) => {
      this.waiter = { keys, resolve };
      signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
    });
  }
}

/** A failure's JSON-RPC error: a protocol error keeps its code and data; anything else is an internal error. */
function taskError(err: unknown): TaskError {
  if (err instanceof ProtocolError) return { code: err.code, message: err.message, ...(err.data !== undefined ? { data: err.data } : {}) };
  return { code: -32603, message: err instanceof Error ? err.message : String(err) };
}

export interface TaskStoreOptions {
  maxTasks: number;
  /** Entries kept in the log; the oldest go first. */
  maxLog: number;
  now?: () => number;
}

export class TaskStore {
  /** Every request that touched a task, oldest first (live: it grows as requests arrive). */
  readonly log: TaskLogEntry[] = [];
  private readonly tasks = new Map<string, TaskRun>();
  // Ids of expired tasks, remembered (bounded) so a late poll hears "expired" rather than "not found".
  private readonly expired = new Set<string>();
  private readonly now: () => number;

  constructor(private readonly options: TaskStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  create(tool: string, settings: TaskSettings): TaskRun {
    this.sweep();
    while (this.tasks.size >= this.options.maxTasks) {
      const oldest = [...this.tasks.values()].find((t) => t.terminal) ?? this.tasks.values().next().value;
      if (!oldest) break;
      oldest.drop();
      this.tasks.delete(oldest.taskId);
    }
    const task = new TaskRun(tool, settings, this.now);
    this.tasks.set(task.taskId, task);
    return task;
  }

  /** The task, or the spec's -32602 for an id the server does not (or no longer) hold. */
  find(taskId: string): TaskRun {
    this.sweep();
    const task = this.tasks.get(taskId);
    if (task) return task;
    throw new ProtocolError(
      -32602,
      this.expired.has(taskId) ? "Failed to retrieve task: Task has expired" : "Failed to retrieve task: Task not found",
    );
  }

  /** Looks a task up without failing (for the log and for tests). */
  peek(taskId: string): TaskRun | undefined {
    this.sweep();
    return this.tasks.get(taskId);
  }

  record(entry: Omit<TaskLogEntry, "at">, at = this.now()): TaskLogEntry {
    const logged: TaskLogEntry = { ...entry, at };
    this.log.push(logged);
    if (this.log.length > this.options.maxLog) this.log.splice(0, this.log.length - this.options.maxLog);
    return logged;
  }

  /** The arrival times of every tasks/get of one task, oldest first. */
  polls(taskId: string): number[] {
    return this.log.filter((e) => e.taskId === taskId && e.method === "tasks/get").map((e) => e.at);
  }

  /** Stops every task's work and forgets them all. */
  close(): void {
    for (const task of this.tasks.values()) task.drop();
    this.tasks.clear();
  }

  private sweep(): void {
    const at = this.now();
    for (const task of this.tasks.values()) {
      if (!task.expired(at)) continue;
      task.drop();
      this.tasks.delete(task.taskId);
      this.expired.add(task.taskId);
    }
    for (const id of this.expired) {
      if (this.expired.size <= this.options.maxTasks * 4) break;
      this.expired.delete(id);
    }
  }
}
