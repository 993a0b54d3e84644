import "server-only";
import type { UserHeaders } from "@/lib/mcp/contract";
import type { SkillsRequest, SkillsResponse } from "@/lib/mcp/skills-contract";
import { getSkill, listSkills, readSkillDirectory, readSkillFile, type SkillsCallOptions, type SkillSender } from "@/lib/upstream";
import type { ApiContext } from "./api-route.ts";
import { rpc } from "./proxy-service.ts";

/**
 * POST /api/skills: the skills extension (SEP-2640) for the browser and the conformance adapter. The client core runs
 * the SDK's checks; each request it makes goes through rpc(), the path of any /api/rpc message (the transport, the
 * builtin servers, a legacy session renewed once when it expired, the wire record with secrets masked), never streamed
 * and with no one to answer a server's request.
 */
export async function skills(input: SkillsRequest & { headers: UserHeaders }, ctx: ApiContext): Promise<SkillsResponse> {
  let connection = input.connection;
  let renewed = false;
  const notes = new Set<string>();
  const send: SkillSender = async (message) => {
    const answer = await rpc({ connection, headers: input.headers, message }, { ...ctx, emit: undefined, asker: undefined });
    // A renewed legacy session serves the operation's later requests too, and goes back to the browser.
    if (answer.connection) {
      connection = answer.connection;
      renewed = true;
    }
    for (const note of answer.notes ?? []) notes.add(note);
    return { response: answer.response, exchanges: answer.exchanges };
  };
  const opts: SkillsCallOptions = {
    send,
    descriptor: input.connection,
    ...(input.capabilities ? { capabilities: input.capabilities } : {}),
    limits: {
      fileMaxBytes: ctx.config.skillFileMaxBytes,
      maxFiles: ctx.config.skillMaxFiles,
      maxSkillBytes: ctx.config.skillMaxBytes,
    },
    maxPages: ctx.config.maxToolPages,
    deadlineMs: ctx.config.listDeadlineMs,
  };
  const answer = await run(input, opts);
  return { ...answer, ...(renewed ? { connection } : {}), ...(notes.size ? { notes: [...notes] } : {}) };
}

function run(input: SkillsRequest, opts: SkillsCallOptions) {
  switch (input.op) {
    case "list":
      return listSkills(opts);
    case "get":
      return getSkill(opts, input.uri);
    case "read":
      return readSkillFile(opts, input.skill, input.file);
    case "directory":
      return readSkillDirectory(opts, input.uri);
  }
}
