/**
 * Tests only: a SARIF log checked against the SARIF 2.1.0 JSON schema (the copy `@microsoft/jest-sarif` ships, a
 * draft-04 schema, so validated with ajv's draft-04 build, and without the u flag: one of its patterns is not valid
 * under it), both installed with the test tools (test-tools/).
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A file of an installed test tool (scripts/test-tools.mjs keeps them in test-tools/node_modules). */
const testToolPath = (...parts: string[]) => fileURLToPath(new URL(`../../../test-tools/node_modules/${parts.join("/")}`, import.meta.url));

const require = createRequire(testToolPath("ajv-draft-04", "package.json"));

/** The schema's errors for `log`, as "path: message" lines; empty when it is a valid SARIF 2.1.0 log. */
export function sarifSchemaErrors(log: unknown): string[] {
  const Ajv = require("ajv-draft-04") as new (opts: Record<string, unknown>) => {
    compile(schema: unknown): ((data: unknown) => boolean) & { errors?: { instancePath: string; message?: string }[] | null };
  };
  const schema = JSON.parse(readFileSync(testToolPath("@microsoft", "jest-sarif", "lib", "schemas", "sarif-2.1.0-rtm.5.json"), "utf8"));
  const validate = new Ajv({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false }).compile(schema);
  return validate(log) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"}: ${e.message}`);
}
