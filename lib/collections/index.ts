/**
 * Collections: saved MCP calls with expectations, their file format, and the runner the playground and `toolscope
 * test` share. Pure — neither React nor Node — and transport-agnostic: a runner is given a `Sender` (sender.ts).
 *
 * format.ts            the types of the file (`toolscope.collection/1`)
 * collection-schema.ts its JSON Schema (docs/collection.schema.json is written from it)
 * parse-collection.ts  text → collection, or problems at line:column
 * write-collection.ts  collection → text, byte-stable
 * substitute.ts        `{{variable}}` placeholders
 * pointer-value.ts     JSON pointers into answers (stepping into JSON text)
 * expectations.ts      one expectation against one answer
 * prepared-answers.ts  the lookup of a call's prepared answers (MRTR rounds, requests sent mid-call)
 * answer-rounds.ts     MRTR rounds answered from a call's prepared answers
 * run-collection.ts    the run and its report
 * expectation-warnings.ts  expectations and captures a tool's definition says cannot hold, found when written
 * propose-expectations.ts  "expect this": expectations an answer passes, volatile values as `present`
 * share-collection.ts  a collection in a link (`#c1.…`), without secrets
 * environment.ts       header names and variables as edited, and the headers a runner lacks
 */
export { COLLECTION_FORMAT, type Collection, type CollectionCall, type CollectionEnvironment, type Expectation } from "./format.ts";
export { COLLECTION_SCHEMA, EXPECTATION_KINDS } from "./collection-schema.ts";
export { formatProblem, parseCollection, type CollectionProblem, type ParsedCollection } from "./parse-collection.ts";
export { writeCollection } from "./write-collection.ts";
export { placeholders, substitute } from "./substitute.ts";
export { preview, valueAt } from "./pointer-value.ts";
export { describeExpectation, evaluateExpectation, type CallOutcome, type ExpectationResult } from "./expectations.ts";
export { sendWithAnswers, type AskInput } from "./answer-rounds.ts";
export { preparedAnswer, preparedServerAnswer } from "./prepared-answers.ts";
export type { SendOptions, SendResult, Sender } from "./sender.ts";
export {
  DEFAULT_CALL_TIMEOUT_MS,
  runCollection,
  type CallReport,
  type CallStatus,
  type RunOptions,
  type RunReport,
  type RunSummary,
} from "./run-collection.ts";
export { expectationWarnings, type ExpectationWarning } from "./expectation-warnings.ts";
export { proposeExpectations, proposeUnchanged, volatilePointers } from "./propose-expectations.ts";
export {
  COLLECTION_SHARE_VERSION,
  MAX_COLLECTION_SHARE_BYTES,
  collectionShareUrl,
  decodeCollectionShare,
  encodeCollectionShare,
  isCollectionShareFragment,
} from "./share-collection.ts";
export { missingHeaders, withHeaderNames, withVariables, type EnvironmentEdit } from "./environment.ts";
