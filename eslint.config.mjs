import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const serverOnly = {
  group: ["@/lib/server/*", "**/lib/server/*", "../server/*"],
  message: "lib/server is server-only: browser code and pure cores must not import it.",
};

const uiImports = { group: ["@/components/*", "@/app/*"], message: "lib/ never imports the UI or routes." };

/** Import direction is enforced here rather than in prose (see README, Architecture). */
const config = [
  ...nextCoreWebVitals,
  ...nextTypescript,
  { rules: { "@typescript-eslint/no-unused-vars": ["warn", { ignoreRestSiblings: true, argsIgnorePattern: "^_" }] } },
  { ignores: [".next/**", ".next-*/**", "node_modules/**", "test-results/**", "playwright-report/**", "next-env.d.ts"] },
  {
    files: ["lib/**/*.ts"],
    ignores: ["lib/**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        patterns: [uiImports],
      }],
    },
  },
  {
    files: ["lib/mcp/**/*.ts"],
    ignores: ["lib/**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        patterns: [
          { group: ["@/*", "../*"], message: "lib/mcp is the leaf: it imports nothing from the repo." },
          { group: ["node:*", "next", "next/*", "react", "react-dom", "server-only"], message: "lib/mcp runs in the browser, route handlers and tests alike." },
        ],
      }],
    },
  },
  {
    files: ["lib/schema/**/*.ts", "lib/docs/**/*.ts", "lib/share/**/*.ts"],
    ignores: ["lib/**/*.test.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        patterns: [
          serverOnly,
          { group: ["@/components/*", "@/app/*", "react", "next", "next/*"], message: "Pure cores import neither React nor the UI." },
          { group: ["node:*"], message: "Pure cores run in the browser too." },
        ],
      }],
    },
  },
  {
    files: ["components/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [serverOnly] }] },
  },
  {
    files: ["lib/playground/**/*.ts", "lib/editor/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [serverOnly, uiImports] }] },
  },
];

export default config;
