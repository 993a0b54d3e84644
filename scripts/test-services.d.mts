// Types for scripts/test-services.mjs (plain Node ESM, imported by node:test files and Playwright setup).

export const MARKER_ENV: "TOOLSCOPE_TEST_SERVICES";

export class TestServicesUnavailable extends Error {}

export interface TestServices {
  /** postgres://postgres@127.0.0.1:<port>/toolscope_test, when PostgreSQL was asked for. */
  databaseUrl: string | undefined;
  /** redis://127.0.0.1:<port>, when Redis was asked for. */
  redisUrl: string | undefined;
  /** Stop what was started and remove its temp dirs (also done on exit and on SIGINT/SIGTERM/SIGHUP). */
  stop(): Promise<void>;
}

export interface ServiceChoice {
  postgres?: boolean;
  redis?: boolean;
  /** Where progress lines go (default: stderr). */
  log?: (line: string) => void;
}

/** Start throwaway PostgreSQL and/or Redis (both by default); throws TestServicesUnavailable with the reason. */
export function startTestServices(options?: ServiceChoice): Promise<TestServices>;

/**
 * For test files: reuse the CLI's services (inside `node scripts/test-services.mjs -- …`), else start the ones
 * asked for (none by default). A service that cannot be had is undefined, with its reason in `unavailable`:
 * skip the tests that need it with that reason. TOOLSCOPE_REQUIRE_TEST_SERVICES=1 makes that an error instead.
 */
export function servicesForTests(options?: ServiceChoice): Promise<{
  databaseUrl?: string;
  redisUrl?: string;
  unavailable: { postgres?: string; redis?: string };
  stop(): Promise<void>;
}>;

export function findPostgresBin(): string | undefined;
export function findRedisServer(): string | undefined;
