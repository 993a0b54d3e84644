/**
 * Tests only: a JUnit XML report checked against the Jenkins JUnit schema (`jenkins-junit.xsd`, the dtkit junit-4.xsd
 * Jenkins published, as the npm package junit-processor 0.0.6 ships it in `schemas/`), by libxml2's xmllint built as
 * WebAssembly (`xmllint-wasm`). Both are test tools (test-tools/): no native binary, no network, no copy of the
 * schema in this repository. Any JUnit writer's tests use it: the conformance report's, and later commands'.
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A file of an installed test tool (scripts/test-tools.mjs keeps them in test-tools/node_modules). */
const testToolPath = (...parts: string[]) => fileURLToPath(new URL(`../../../test-tools/node_modules/${parts.join("/")}`, import.meta.url));

const require = createRequire(testToolPath("xmllint-wasm", "package.json"));

/** The part of xmllint-wasm's API used here (typed locally: the type checker does not look into test-tools/). */
interface XmlFile {
  fileName: string;
  contents: string;
}
type ValidateXml = (options: { xml: XmlFile[]; schema: XmlFile[] }) => Promise<{
  valid: boolean;
  errors: readonly { message: string; loc: null | { lineNumber: number } }[];
}>;

const SCHEMA_FILE = "jenkins-junit.xsd";

/**
 * What libxml2 finds wrong with `xml` as a JUnit report, a "line N: message" string each: not well-formed, or not
 * valid against the schema. Empty when it is valid.
 */
export async function junitSchemaErrors(xml: string): Promise<string[]> {
  const { validateXML } = require("xmllint-wasm") as { validateXML: ValidateXml };
  const schema = readFileSync(testToolPath("junit-processor", "schemas", SCHEMA_FILE), "utf8");
  try {
    const result = await validateXML({
      xml: [{ fileName: "report.xml", contents: xml }],
      schema: [{ fileName: SCHEMA_FILE, contents: schema }],
    });
    if (result.valid) return [];
    const errors = result.errors.map((e) => (e.loc ? `line ${e.loc.lineNumber}: ${e.message}` : e.message));
    return errors.length ? errors : ["invalid, with no message from xmllint"];
  } catch (e) {
    // xmllint exited with a code that is neither "valid" nor "invalid" (an unreadable schema, out of memory): say so,
    // so a test expecting no errors fails with xmllint's words.
    return [`xmllint failed: ${e instanceof Error ? e.message : String(e)}`];
  }
}
