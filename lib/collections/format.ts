/**
 * The collection file (`toolscope.collection/1`): saved calls, each with what its answer must satisfy, grouped and
 * ordered, with variables a call captures from its answer for the calls after it. The types here are what the parser
 * returns and the writer takes; the file's JSON Schema is collection-schema.ts (published as
 * docs/collection.schema.json). Pure: the playground's runner and `toolscope test` share this folder.
 */

export const COLLECTION_FORMAT = "toolscope.collection/1";

/** Where a collection runs. Header values never go in the file: only the names the server needs. */
export interface CollectionEnvironment {
  /** The server's URL (an http(s) endpoint); a runner's own choice (a flag, the connected server) wins. */
  server?: string;
  /** Names of the request headers the server needs (Authorization, X-Api-Key); the runner supplies the values. */
  headers?: string[];
  /** Variables set before the first call; a capture of the same name replaces the value. */
  variables?: Record<string, unknown>;
}

/** A JSON pointer into the call's JSON-RPC response ("/result/structuredContent/id"). See pointer-value.ts. */
export type Pointer = string;

export type Expectation =
  /** The answer is not a JSON-RPC error. */
  | { kind: "no-error" }
  /** The answer is a JSON-RPC error (with this code when given). */
  | { kind: "error"; code?: number }
  /** `result.isError` is this value (absent counts as false). */
  | { kind: "is-error"; value: boolean }
  /** `result.structuredContent` is valid against the called tool's outputSchema (from tools/list). */
  | { kind: "output-schema" }
  /** The value at `pointer` (default /result/structuredContent) is valid against `schema`. */
  | { kind: "schema"; schema: unknown; pointer?: Pointer }
  | { kind: "equals"; pointer: Pointer; value: unknown }
  | { kind: "matches"; pointer: Pointer; pattern: string; flags?: string }
  | { kind: "present"; pointer: Pointer }
  | { kind: "absent"; pointer: Pointer }
  /** Some text block of `result.content` contains `text`. */
  | { kind: "text-contains"; text: string }
  /** Some text block of `result.content` matches `pattern`. */
  | { kind: "text-matches"; pattern: string; flags?: string }
  /** tools/list has (`listed`, default true) or has not a tool of this name. */
  | { kind: "tool-listed"; tool: string; listed?: boolean }
  /** The call (every MRTR round) took at most `maxMs`. */
  | { kind: "latency"; maxMs: number }
  /** The value at `pointer` (default /result) equals `recorded`, apart from the `volatile` pointers (relative to it). */
  | { kind: "unchanged"; recorded: unknown; pointer?: Pointer; volatile?: Pointer[] };

export type ExpectationKind = Expectation["kind"];

export interface CollectionCall {
  /** Unique in the collection: reports, `--grep` and JUnit name calls by it. */
  name: string;
  /** The JSON-RPC request; strings may hold `{{variable}}` placeholders. An id is assigned when it has none. */
  request: Record<string, unknown>;
  expect: Expectation[];
  /** Variables to set from the answer: name → JSON pointer into the response. */
  capture?: Record<string, Pointer>;
  /** Prepared answers to `input_required` (MRTR) requests: by the request's key, or by its method. */
  answers?: Record<string, unknown>;
  /** This call's bound, in ms (the runner's default otherwise). */
  timeoutMs?: number;
}

export interface Collection {
  format: typeof COLLECTION_FORMAT;
  name: string;
  description?: string;
  environment?: CollectionEnvironment;
  calls: CollectionCall[];
}
