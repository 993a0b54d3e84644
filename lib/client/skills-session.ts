/**
 * The skills extension (SEP-2640) for one server, as the docs pages and the playground use it: every operation goes to
 * POST /api/skills with the connection and the capabilities the server declared (a legacy connection's descriptor
 * does not hold them), and a connection the API renewed is kept for the next one. Nothing is read unless asked for:
 * listing and getting read no file, and `read` reads the one file named.
 */
import type { ConnectionDescriptor, UserHeaders } from "../mcp/contract.ts";
import type { SkillEntry, SkillsGetResponse, SkillsListResponse, SkillsReadResponse } from "../mcp/skills-contract.ts";
import { api } from "./api-client.ts";

/** Where the session is connected: the descriptor and `server.capabilities` as /api/connect returned them. */
export interface SkillsConnection {
  connection: ConnectionDescriptor;
  capabilities: Record<string, unknown>;
}

export interface SkillsSessionOptions {
  /** The connection to use now (called before each operation: the playground's may change between them). */
  connect: () => Promise<SkillsConnection>;
  /** The user's headers (the playground's); the docs send none. */
  headers?: UserHeaders;
  /** Told a descriptor the API renewed (a legacy session that had expired): `connect` should answer it from then on. */
  onConnection?: (connection: ConnectionDescriptor) => void;
}

export interface SkillsSession {
  list(signal?: AbortSignal): Promise<SkillsListResponse>;
  get(uri: string, signal?: AbortSignal): Promise<SkillsGetResponse>;
  /** One file of the skill (SKILL.md when `file` is left out), verified against `skill`; a failed check is `refused`. */
  read(skill: SkillEntry | string, file?: string, signal?: AbortSignal): Promise<SkillsReadResponse>;
}

export function skillsSession({ connect, headers = {}, onConnection }: SkillsSessionOptions): SkillsSession {
  const call = async <R extends { connection?: ConnectionDescriptor }>(send: (at: SkillsConnection) => Promise<R>): Promise<R> => {
    const answer = await send(await connect());
    if (answer.connection) onConnection?.(answer.connection);
    return answer;
  };
  return {
    list: (signal) => call((at) => api.skills({ op: "list", ...at, headers }, signal)),
    get: (uri, signal) => call((at) => api.skills({ op: "get", uri, ...at, headers }, signal)),
    read: (skill, file, signal) =>
      call((at) => api.skills({ op: "read", skill, ...(file !== undefined ? { file } : {}), ...at, headers }, signal)),
  };
}

/**
 * A connection made once, on first use, without credentials and without anyone to answer the server's requests: what
 * a docs page may do (Try it connects the same way). A failed connect is tried again on the next use; a renewed
 * descriptor replaces the one made. Spread it into {@link skillsSession}'s options.
 */
export function publicConnection(server: string): Required<Pick<SkillsSessionOptions, "connect" | "onConnection">> {
  let made: Promise<SkillsConnection> | undefined;
  return {
    connect: () =>
      (made ??= api.connect({ url: server, era: "auto", interactive: false }).then(
        (r) => ({ connection: r.connection, capabilities: r.server.capabilities }),
        (err: unknown) => {
          made = undefined;
          throw err;
        },
      )),
    onConnection: (connection) => {
      made = made?.then((at) => ({ ...at, connection }));
    },
  };
}
