/**
 * The demo issue tracker's data: a bounded, in-memory store shared by every server instance of
 * this process (modern-era requests are served by a fresh server per request, so nothing may live
 * on the instance). Seeded deterministically; everything resets when the process restarts.
 *
 * The hosted demo is shared by strangers, so every collection and every string is capped; hitting
 * a cap is reported to the caller as a {@link StoreLimitError} rather than growing without bound.
 */
import { processSingleton, replaceProcessSingleton } from "../runtime/process-singleton.ts";

export type IssueStatus = "open" | "in_progress" | "closed";
export const ISSUE_STATUSES: readonly IssueStatus[] = ["open", "in_progress", "closed"];

export type Assignee = { kind: "user"; userId: string } | { kind: "team"; team: string };

export interface Issue {
  id: number;
  title: string;
  body: string;
  status: IssueStatus;
  labels: string[];
  assignee: Assignee | null;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
}

export interface Basket {
  id: string;
  issueIds: number[];
  openedAt: number;
}

export const LIMITS = {
  maxIssues: 500,
  maxBaskets: 200,
  maxBasketItems: 50,
  maxTitle: 200,
  maxBody: 4_000,
  maxLabels: 10,
  maxLabel: 40,
  maxQuery: 500,
  maxName: 80,
} as const;

/** Baskets live this long after `open_basket`. */
export const BASKET_TTL_MS = 10 * 60 * 1000;

/** A cap of the shared demo was hit; the message is meant for the caller (and its model). */
export class StoreLimitError extends Error {
  override name = "StoreLimitError";
}

/** The referenced thing does not exist (or no longer does); the message says what to do instead. */
export class NotFoundError extends Error {
  override name = "NotFoundError";
}

/** Fixed epoch for the seed data, so that listings are byte-stable across restarts. */
const SEED_EPOCH = Date.UTC(2026, 6, 1, 9, 0, 0);

const SEED: ReadonlyArray<Omit<Issue, "id" | "createdAt" | "updatedAt">> = [
  {
    title: "Login page times out behind corporate proxy",
    body: "Users behind an HTTP proxy see a spinner for 60 s, then a blank page.",
    status: "open",
    labels: ["bug", "auth"],
    assignee: { kind: "user", userId: "u_ada" },
  },
  {
    title: "Add dark mode to the dashboard",
    body: "Respect prefers-color-scheme and add a manual toggle.",
    status: "in_progress",
    labels: ["feature", "ui"],
    assignee: { kind: "team", team: "frontend" },
  },
  {
    title: "CSV export drops rows with commas in the title",
    body: "Titles containing commas are not quoted, so the row splits.",
    status: "open",
    labels: ["bug", "export"],
    assignee: null,
  },
  {
    title: "Rate limit the public search endpoint",
    body: "Anonymous clients can issue unlimited searches.",
    status: "open",
    labels: ["security", "api"],
    assignee: { kind: "team", team: "platform" },
  },
  {
    title: "Upgrade the database driver",
    body: "The current driver is two majors behind and misses TLS 1.3 support.",
    status: "closed",
    labels: ["chore"],
    assignee: { kind: "user", userId: "u_linus" },
  },
  { title: "Typo in the onboarding email", body: '"Welcom" should read "Welcome".', status: "closed", labels: ["docs"], assignee: null },
  {
    title: "Search ignores accented characters",
    body: 'Searching for "cafe" does not find "café".',
    status: "in_progress",
    labels: ["bug", "search"],
    assignee: { kind: "user", userId: "u_grace" },
  },
  {
    title: "Webhook retries hammer slow receivers",
    body: "Retries fire immediately; add exponential backoff with jitter.",
    status: "open",
    labels: ["bug", "api"],
    assignee: { kind: "team", team: "platform" },
  },
  {
    title: "Document the audit log format",
    body: "Customers ask which fields the audit log contains.",
    status: "open",
    labels: ["docs"],
    assignee: null,
  },
  {
    title: "Flaky test: notifications arrive out of order",
    body: "Fails roughly once in 30 CI runs.",
    status: "in_progress",
    labels: ["test", "flaky"],
    assignee: { kind: "user", userId: "u_ada" },
  },
  {
    title: "Remove the legacy v1 API",
    body: "v1 has had no traffic for 90 days.",
    status: "closed",
    labels: ["chore", "api"],
    assignee: { kind: "team", team: "platform" },
  },
  {
    title: "Mobile layout overlaps the issue sidebar",
    body: "Below 380 px the sidebar covers the issue body.",
    status: "open",
    labels: ["bug", "ui"],
    assignee: { kind: "team", team: "frontend" },
  },
];

interface StoreState {
  issues: Map<number, Issue>;
  nextId: number;
  baskets: Map<string, Basket>;
}

function seededState(): StoreState {
  const issues = new Map<number, Issue>();
  SEED.forEach((seed, i) => {
    const id = i + 1;
    const at = SEED_EPOCH + i * 3_600_000;
    issues.set(id, {
      ...seed,
      labels: [...seed.labels],
      assignee: seed.assignee ? { ...seed.assignee } : null,
      id,
      createdAt: at,
      updatedAt: at,
    });
  });
  return { issues, nextId: SEED.length + 1, baskets: new Map() };
}

/** One store per process (pages and routes share it), created lazily so that importing this module has no side effects. */
function s(): StoreState {
  return processSingleton("demo.issue-store", seededState);
}

/** Back to the seed data (tests; also what a process restart does). */
export function resetDemoStore(): void {
  replaceProcessSingleton("demo.issue-store", seededState());
}

function clip(value: string, max: number): string {
  return value.length > max ? value.slice(0, max) : value;
}

function copy(issue: Issue): Issue {
  return { ...issue, labels: [...issue.labels], assignee: issue.assignee ? { ...issue.assignee } : null };
}

/** All issues, ascending by id. */
export function listIssues(): Issue[] {
  return [...s().issues.values()].sort((a, b) => a.id - b.id).map(copy);
}

export interface SearchOptions {
  query: string;
  status?: IssueStatus;
  limit: number;
}

/** Case- and accent-insensitive substring match on title, body and labels; newest first. */
export function searchIssues(opts: SearchOptions): { issues: Issue[]; total: number } {
  const fold = (v: string) =>
    v
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase();
  const needle = fold(clip(opts.query, LIMITS.maxQuery).trim());
  const matches = listIssues()
    .filter((i) => (opts.status ? i.status === opts.status : true))
    .filter((i) => needle === "" || fold(`${i.title}\n${i.body}\n${i.labels.join(" ")}`).includes(needle))
    .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
  return { issues: matches.slice(0, opts.limit), total: matches.length };
}

export function getIssue(id: number): Issue | undefined {
  const found = s().issues.get(id);
  return found ? copy(found) : undefined;
}

function mustGet(id: number): Issue {
  const found = s().issues.get(id);
  if (!found) throw new NotFoundError(`Issue #${id} does not exist. Use search_issues to find valid ids.`);
  return found;
}

export interface NewIssue {
  title: string;
  body?: string;
  labels?: string[];
}

export function createIssue(input: NewIssue, now: number): Issue {
  const st = s();
  if (st.issues.size >= LIMITS.maxIssues) {
    throw new StoreLimitError(
      `The shared demo tracker is full (${LIMITS.maxIssues} issues). Delete or purge issues first; the data resets when the server restarts.`,
    );
  }
  const title = clip(input.title.trim(), LIMITS.maxTitle);
  if (title === "") throw new RangeError("title must not be empty.");
  const labels = [...new Set((input.labels ?? []).map((l) => clip(l.trim().toLowerCase(), LIMITS.maxLabel)).filter((l) => l !== ""))].slice(
    0,
    LIMITS.maxLabels,
  );
  const issue: Issue = {
    id: st.nextId++,
    title,
    body: clip(input.body ?? "", LIMITS.maxBody),
    status: "open",
    labels,
    assignee: null,
    createdAt: now,
    updatedAt: now,
  };
  st.issues.set(issue.id, issue);
  return copy(issue);
}

/** Closes an issue; closing a closed issue is a no-op (the tool is idempotent). */
export function closeIssue(id: number, now: number): { issue: Issue; changed: boolean } {
  const issue = mustGet(id);
  if (issue.status === "closed") return { issue: copy(issue), changed: false };
  issue.status = "closed";
  issue.updatedAt = now;
  return { issue: copy(issue), changed: true };
}

export function deleteIssue(id: number): Issue {
  const issue = mustGet(id);
  s().issues.delete(id);
  for (const basket of s().baskets.values()) basket.issueIds = basket.issueIds.filter((i) => i !== id);
  return copy(issue);
}

export function assignIssue(id: number, assignee: Assignee, now: number): Issue {
  const issue = mustGet(id);
  issue.assignee =
    assignee.kind === "user"
      ? { kind: "user", userId: clip(assignee.userId, LIMITS.maxName) }
      : { kind: "team", team: clip(assignee.team, LIMITS.maxName) };
  issue.updatedAt = now;
  return copy(issue);
}

/** Removes every closed issue; returns how many were removed. */
export function purgeClosedIssues(): number {
  const closed = listIssues().filter((i) => i.status === "closed");
  for (const issue of closed) deleteIssue(issue.id);
  return closed.length;
}

export function countClosedIssues(): number {
  return listIssues().filter((i) => i.status === "closed").length;
}

export interface Stats {
  total: number;
  byStatus: Record<IssueStatus, number>;
  byLabel: Record<string, number>;
  unassigned: number;
}

export function issueStats(): Stats {
  const byStatus: Record<IssueStatus, number> = { open: 0, in_progress: 0, closed: 0 };
  const byLabel: Record<string, number> = {};
  let unassigned = 0;
  const issues = listIssues();
  for (const issue of issues) {
    byStatus[issue.status]++;
    for (const label of issue.labels) byLabel[label] = (byLabel[label] ?? 0) + 1;
    if (!issue.assignee) unassigned++;
  }
  const sortedLabels = Object.fromEntries(Object.entries(byLabel).sort(([a], [b]) => a.localeCompare(b)));
  return { total: issues.length, byStatus, byLabel: sortedLabels, unassigned };
}

// ---------------------------------------------------------------------------------------------
// Baskets: a server-minted, expiring handle (state lives on the server, the client holds an id).

function basketProblem(id: string, basket: Basket | undefined, now: number): string | undefined {
  if (!basket)
    return `Basket ${clip(id, 64)} does not exist (baskets live ${BASKET_TTL_MS / 60_000} minutes and are forgotten on restart); call open_basket to get a new basket_id.`;
  if (now - basket.openedAt >= BASKET_TTL_MS)
    return `Basket ${basket.id} has expired (baskets live ${BASKET_TTL_MS / 60_000} minutes); call open_basket again.`;
  return undefined;
}

function sweepBaskets(now: number): void {
  // Expired baskets are kept for a grace period so callers get "expired" rather than "unknown".
  for (const [id, basket] of s().baskets) if (now - basket.openedAt >= 2 * BASKET_TTL_MS) s().baskets.delete(id);
}

function newBasketId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return `b_${Buffer.from(bytes).toString("base64url")}`;
}

export function openBasket(now: number): Basket & { expiresAt: number } {
  sweepBaskets(now);
  const st = s();
  let live = 0;
  for (const b of st.baskets.values()) if (now - b.openedAt < BASKET_TTL_MS) live++;
  if (live >= LIMITS.maxBaskets) {
    throw new StoreLimitError(
      `Too many open baskets on the shared demo (${LIMITS.maxBaskets}). Check out an existing basket or wait for baskets to expire (they live ${BASKET_TTL_MS / 60_000} minutes).`,
    );
  }
  // Make room among expired ones if the map itself is at the cap.
  if (st.baskets.size >= LIMITS.maxBaskets) {
    const oldest = [...st.baskets.values()].sort((a, b) => a.openedAt - b.openedAt)[0];
    if (oldest) st.baskets.delete(oldest.id);
  }
  const basket: Basket = { id: newBasketId(), issueIds: [], openedAt: now };
  st.baskets.set(basket.id, basket);
  return { ...basket, issueIds: [], expiresAt: now + BASKET_TTL_MS };
}

export function addToBasket(basketId: string, issueId: number, now: number): Basket & { expiresAt: number } {
  const basket = s().baskets.get(basketId);
  const problem = basketProblem(basketId, basket, now);
  if (problem || !basket) throw new NotFoundError(problem);
  mustGet(issueId);
  if (!basket.issueIds.includes(issueId)) {
    if (basket.issueIds.length >= LIMITS.maxBasketItems)
      throw new StoreLimitError(`Basket ${basket.id} is full (${LIMITS.maxBasketItems} issues); check it out first.`);
    basket.issueIds.push(issueId);
  }
  return { ...basket, issueIds: [...basket.issueIds], expiresAt: basket.openedAt + BASKET_TTL_MS };
}

/** Consumes the basket: returns its issues and forgets the handle. */
export function checkoutBasket(basketId: string, now: number): { basketId: string; issues: Issue[] } {
  const basket = s().baskets.get(basketId);
  const problem = basketProblem(basketId, basket, now);
  if (problem || !basket) throw new NotFoundError(problem);
  s().baskets.delete(basket.id);
  const issues = basket.issueIds.map((id) => getIssue(id)).filter((i): i is Issue => i !== undefined);
  return { basketId: basket.id, issues };
}
