import { defineConfig } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "./playwright/browser";

const PORT = Number(process.env.E2E_PORT ?? 3100);

export default defineConfig({
  testDir: "./playwright",
  testMatch: "**/*.spec.ts",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  globalSetup: "./playwright/fixtures/global-setup.ts",
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
  webServer: {
    command: `node scripts/server.mjs`,
    url: `http://127.0.0.1:${PORT}/`,
    reuseExistingServer: false,
    timeout: 60_000,
    // Stream idle limit: above the SDK servers' 15 s keep-alive comments (open listen streams), short enough for stream-limits.spec.ts.
    env: {
      HOST: "127.0.0.1",
      PORT: String(PORT),
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      TOOLSCOPE_MODE: "local",
      TOOLSCOPE_REQUEST_TIMEOUT_MS: "5000",
      TOOLSCOPE_STREAM_IDLE_MS: "20000",
      TOOLSCOPE_STDIO_CONFIG: "playwright/fixtures/stdio-servers.json",
    },
  },
});
