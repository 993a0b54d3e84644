import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // A second build directory lets a check build run beside another one (NEXT_DIST_DIR=.next-check).
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  // The proxy and demo server run on Node (undici Agent, DNS checks); nothing here targets the edge runtime.
  serverExternalPackages: [],
  // `npm start` and the test command build without the type check (scripts/build-if-needed.mjs): `npm run typecheck`
  // does it, once. `npm run build` keeps it.
  typescript: { ignoreBuildErrors: process.env.TOOLSCOPE_BUILD_TYPECHECK === "0" },
  // The browser gets no Node Buffer polyfill (lib/client/no-node-buffer.ts says why).
  turbopack: { resolveAlias: { "next/dist/compiled/buffer": { browser: "./lib/client/no-node-buffer.ts" } } },
  // A profiling build keeps the server's function names (scripts/bench/profile.ts --unminified builds one apart).
  experimental: { serverMinification: process.env.TOOLSCOPE_SERVER_MINIFY !== "0" },
};

export default nextConfig;
