// Types for scripts/test-tools.mjs (plain Node ESM, used by the test fixtures and scripts/ensure-test-tools.mjs).
export const TEST_TOOLS_DIR: string;
export function testToolPath(...parts: string[]): string;
export const NODE22_PATH: string;
