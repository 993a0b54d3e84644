import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const uiImports = { group: ["@/components/*", "@/app/*"], message: "lib/ never imports the UI or routes." };

/** How deep a layer's own subfolders go (lib/upstream/transports/…: 1). */
const MAX_SUBFOLDER_DEPTH = 2;

/**
 * Imports from a file `depth` folders below `folder` that reach a repo folder not in `allowed` (such as "lib/mcp"):
 * written as `@/…`, or relative (`../` × depth stays in `folder`; one more reaches a sibling of `folder`; more leave
 * its parent).
 */
function importsOutside(folder, allowed, depth = 0) {
  const parent = folder.slice(0, folder.lastIndexOf("/") + 1);
  const alias = [folder, ...allowed].map((f) => `${f}(?:/|$)`).join("|");
  const siblings = [folder, ...allowed]
    .filter((f) => f.startsWith(parent))
    .map((f) => `${f.slice(parent.length)}/`)
    .join("|");
  return `^(?:@/(?!${alias})|(?:\\.\\./){${depth + 1}}(?!${siblings}))`;
}

/** The files `depth` folders below `folder` with one of `exts` ("ts" or "{ts,tsx}"). */
function filesAt(folder, depth, exts) {
  return [`${folder}/${"*/".repeat(depth)}*.${exts}`];
}

/** A lib/ folder that may import only `allowed` (and itself) from the repo, plus `extra` patterns. */
function layer(folder, allowed, extra, message) {
  return Array.from({ length: MAX_SUBFOLDER_DEPTH + 1 }, (_, depth) => ({
    files: filesAt(folder, depth, "ts"),
    ignores: ["lib/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [{ regex: importsOutside(folder, allowed, depth), message }, ...extra],
        },
      ],
    },
  }));
}

/** The lib/ folders the browser may load (lib/server, lib/demo and lib/runtime are not among them). */
const BELOW_BROWSER_LIBS = ["lib/json", "lib/mcp", "lib/schema", "lib/share", "lib/docs"];
const BROWSER_LIBS = [...BELOW_BROWSER_LIBS, "lib/editor", "lib/codegen", "lib/client", "lib/forms", "lib/playground", "lib/collections"];

/** A components/ folder: the browser libraries, its own folder and `allowed` components folders. */
function uiLayer(folder, allowed, message) {
  return Array.from({ length: MAX_SUBFOLDER_DEPTH + 1 }, (_, depth) => ({
    files: filesAt(folder, depth, "{ts,tsx}"),
    rules: {
      "no-restricted-imports": ["error", { patterns: [{ regex: importsOutside(folder, [...allowed, ...BROWSER_LIBS], depth), message }] }],
    },
  }));
}

const PURE = [
  { group: ["react", "react-dom", "next", "next/*"], message: "Pure cores import neither React nor the UI." },
  { group: ["node:*", "server-only"], message: "Pure cores run in the browser too." },
];
const BROWSER = [
  { group: ["next", "next/*"], message: "Browser libraries leave Next.js to components/ and app/." },
  { group: ["node:*", "server-only"], message: "Browser libraries run in the browser." },
];
const NEUTRAL = [
  {
    group: ["next", "next/*", "react", "react-dom", "node:*", "server-only"],
    message: "lib/runtime is neutral: the server and the demo load it alike.",
  },
];

/**
 * Outside lib/upstream the MCP client core is reached through its entry points only: `@/lib/upstream` (the client),
 * `@/lib/upstream/policy` (errors and egress, no transports) and `@/lib/upstream/settings`.
 */
const CORE_ENTRY_POINTS = {
  regex: "^(?:@/lib/|(?:\\.\\./)+(?:lib/)?)upstream/(?!(?:policy|settings)(?:\\.ts)?$)",
  message: "Use the MCP client core through @/lib/upstream, @/lib/upstream/policy or @/lib/upstream/settings (docs/architecture.md).",
};

/** Import direction is enforced here rather than in prose (see docs/architecture.md). */
const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  { rules: { "@typescript-eslint/no-unused-vars": ["warn", { ignoreRestSiblings: true, argsIgnorePattern: "^_" }] } },
  {
    ignores: [
      ".next/**",
      ".next-*/**",
      ".bench/**",
      "cli/dist/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
    ],
  },
  {
    files: ["lib/**/*.ts"],
    ignores: ["lib/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [uiImports],
        },
      ],
    },
  },
  // lib/json is the leaf (guards, JSON Pointer, canonical JSON); lib/mcp sits on it and imports nothing else.
  ...layer(
    "lib/json",
    [],
    [
      {
        group: ["node:*", "next", "next/*", "react", "react-dom", "server-only"],
        message: "lib/json runs in the browser, route handlers and tests alike.",
      },
    ],
    "lib/json is the leaf: it imports nothing from the repo.",
  ),
  ...layer(
    "lib/mcp",
    ["lib/json"],
    [
      {
        group: ["node:*", "next", "next/*", "react", "react-dom", "server-only"],
        message: "lib/mcp runs in the browser, route handlers and tests alike.",
      },
    ],
    "lib/mcp sits just above the leaf: from the repo it imports only lib/json (as ../json/x.ts).",
  ),
  // The layers above lib/json and lib/mcp, inner first (docs/architecture.md). Each folder lists what it may import
  // from the repo (itself included); anything else there is refused, so a new folder is refused until placed here.
  ...layer(
    "lib/schema",
    ["lib/json", "lib/mcp"],
    PURE,
    "lib/schema sits above lib/mcp: from the repo it imports only lib/json and lib/mcp.",
  ),
  ...layer("lib/share", ["lib/json", "lib/mcp"], PURE, "lib/share sits above lib/mcp: from the repo it imports only lib/json and lib/mcp."),
  ...layer(
    "lib/security",
    ["lib/json", "lib/mcp"],
    PURE,
    "lib/security sits above lib/mcp (the proxy and lib/server use it): from the repo it imports only lib/json and lib/mcp.",
  ),
  ...layer(
    "lib/docs",
    ["lib/json", "lib/mcp", "lib/schema", "lib/share"],
    PURE,
    "lib/docs sits above lib/schema and lib/share: from the repo it imports only those, lib/mcp and lib/json.",
  ),
  ...["lib/editor", "lib/codegen", "lib/client"].flatMap((folder) =>
    layer(
      folder,
      [...BELOW_BROWSER_LIBS],
      BROWSER,
      `${folder} sits above lib/docs, beside lib/editor, lib/codegen and lib/client: it imports lib/docs and the layers under it, not its siblings.`,
    ),
  ),
  // lib/forms (schema → form model) sits beside lib/editor; lib/playground builds the elicitation form on it.
  ...layer(
    "lib/forms",
    [...BELOW_BROWSER_LIBS],
    BROWSER,
    "lib/forms sits above lib/docs, beside lib/editor: it imports lib/schema and the layers under it, not its siblings.",
  ),
  ...layer(
    "lib/playground",
    [...BELOW_BROWSER_LIBS, "lib/editor", "lib/codegen", "lib/client", "lib/forms"],
    BROWSER,
    "lib/playground is the top of the browser libraries: it imports lib/editor, lib/codegen, lib/client and the layers under them, never lib/server, lib/demo or the UI.",
  ),
  // Collections (saved calls with expectations, their file format, the runner) sit on the playground's pure MRTR rules
  // and the editor's pointer ranges; the playground's runner UI and lib/cli (`toolscope test`) both use them, so they
  // stay pure: neither React nor Node, the transport given as a function.
  ...layer(
    "lib/collections",
    [...BELOW_BROWSER_LIBS, "lib/editor", "lib/playground"],
    PURE,
    "lib/collections sits on lib/playground's pure rules and lib/editor: it imports those and the layers under them, never lib/upstream, lib/server or the UI.",
  ),
  ...layer("lib/runtime", [], NEUTRAL, "lib/runtime is a leaf: it imports nothing from the repo."),
  // Test support shared by the demo's and the client core's test servers (a loopback HTTP adapter): Node only.
  ...layer(
    "lib/testing",
    [],
    [{ group: ["next", "next/*", "react", "react-dom", "server-only"], message: "lib/testing is plain Node test support." }],
    "lib/testing is a leaf: it imports nothing from the repo.",
  ),
  {
    files: ["lib/log/**/*.{mjs,mts}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?:@/|\\.\\./)",
              message: "lib/log is a leaf that scripts load without a TypeScript loader: it imports nothing from the repo.",
            },
          ],
        },
      ],
    },
  },
  ...layer(
    "lib/demo",
    ["lib/json", "lib/mcp", "lib/schema", "lib/runtime", "lib/testing"],
    [{ group: ["next", "next/*", "react", "react-dom"], message: "lib/demo is a plain MCP server: no Next.js, no React." }],
    "lib/demo is server-only: from the repo it imports only lib/json, lib/mcp, lib/schema, lib/runtime and lib/testing (its test servers).",
  ),
  // The MCP client core: runs in any Node program (the web service, a CLI, a plain `node` test), so no Next.js, no
  // React, no server-only, and never the web service that uses it.
  ...layer(
    "lib/upstream",
    ["lib/json", "lib/mcp", "lib/schema", "lib/runtime", "lib/log", "lib/testing"],
    [
      {
        group: ["next", "next/*", "react", "react-dom", "server-only"],
        message: "lib/upstream is the MCP client core: it runs without Next.js (docs/architecture.md).",
      },
    ],
    "lib/upstream is the MCP client core: from the repo it imports only lib/json, lib/mcp, lib/schema, lib/runtime and lib/log — never lib/server.",
  ),
  // The command line: a Node program on the client core and the docs' rules (one lint, one diff with the web app),
  // never the web service, Next.js or React.
  ...layer(
    "lib/cli",
    ["lib/json", "lib/mcp", "lib/schema", "lib/share", "lib/docs", "lib/collections", "lib/upstream", "lib/runtime", "lib/log"],
    [
      { group: ["next", "next/*", "react", "react-dom", "server-only"], message: "lib/cli runs without Next.js or React." },
      CORE_ENTRY_POINTS,
    ],
    "lib/cli sits on the client core and lib/docs: from the repo it imports lib/upstream (entry points), lib/docs and the layers under them — never lib/server or lib/demo.",
  ),
  {
    files: ["lib/server/**/*.ts"],
    ignores: ["lib/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { regex: "^(?:@/|(?:\\.\\./)+)(?:components|app)/", message: "lib/server imports any of lib/ but never the UI or routes." },
            CORE_ENTRY_POINTS,
          ],
        },
      ],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "proxy.ts"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [CORE_ENTRY_POINTS] }] },
  },
  // Components: the browser libraries, components/ui and their own folder; never lib/server, lib/demo, lib/runtime,
  // app/ or another feature's components.
  ...uiLayer(
    "components/ui",
    [],
    "components/ui is shared by every feature: it imports the browser libraries of lib/ only, no other components.",
  ),
  // components/forms (the form generated from a JSON Schema) is shared like components/ui: the playground and the
  // docs pages both show it.
  ...uiLayer(
    "components/forms",
    ["components/ui"],
    "components/forms imports components/ui, its own folder and the browser libraries of lib/.",
  ),
  ...["components/docs", "components/home", "components/layout", "components/playground"].flatMap((folder) =>
    uiLayer(
      folder,
      ["components/ui", "components/forms"],
      `${folder} imports components/ui, its own folder and the browser libraries of lib/ (never lib/server, lib/demo or another feature's components).`,
    ),
  ),
  // Try it on the docs pages shows a result the way the playground does (RenderedResult, the destructive-call
  // confirmation): components/docs may import those (not the editor: docs pages stay free of Monaco).
  ...uiLayer(
    "components/docs",
    ["components/ui", "components/forms", "components/playground"],
    "components/docs imports components/ui, components/forms, the playground's result views, its own folder and the browser libraries of lib/.",
  ),
  // The static docs site (`toolscope docs`) renders the docs pages' components to files: it may use them and the
  // layout's theme script, nothing of the playground.
  ...uiLayer(
    "components/static-docs",
    ["components/ui", "components/forms", "components/docs", "components/layout"],
    "components/static-docs imports the docs components, components/ui, components/forms, the layout's theme script and the browser libraries of lib/.",
  ),
  // The command line's entry: lib/cli's commands plus `docs` (components/static-docs); never the web service.
  {
    files: ["cli/src/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(?:@/|(?:\\.\\./)+)(?:lib/(?:server|demo)|app)(?:/|$)",
              message: "The command line never imports the web service, the demo or routes.",
            },
            { group: ["next", "next/*", "server-only"], message: "The command line runs without Next.js." },
            CORE_ENTRY_POINTS,
          ],
        },
      ],
    },
  },
  // Import cycles fail wherever they are. This rule skips type-only imports (eslint-plugin-import ignores them without
  // an option), so `npm run lint` also runs dpdm over every file with type imports counted (npm run lint:cycles). The
  // resolver (eslint-import-resolver-typescript, set up by eslint-config-next) follows the tsconfig `@/` paths.
  {
    files: ["**/*.{ts,tsx,mts,mjs}"],
    rules: { "import/no-cycle": ["error", { ignoreExternal: true }] },
  },
];

export default config;
