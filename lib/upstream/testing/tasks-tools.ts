/**
 * Tests only: the tools of the tasks fixture server (tasks-server.ts). Two groups:
 *
 * - The fixtures the conformance suite's server scenarios `tasks-*` call by name (SEP-2663): `greet` (never a task),
 *   `slow_compute {seconds, label}`, `failing_job` (a tool error: the task ends `completed` with `isError`),
 *   `protocol_error_job` (the task ends `failed` with an `error`), `confirm_delete {filename}` (one question mid-task),
 *   `multi_input` (two questions at once, answerable one at a time) and `test_tool_with_task` (asks `user_name`
 *   through an MRTR round first, then becomes a task).
 * - Toolscope's own, for the UI: `build_report {topic, steps?}` (a task nobody asked for, reporting each step in
 *   `statusMessage`) and `deploy_with_approval {service}` (asks for approval mid-task; cancellable while it waits).
 *
 * Each tool's work is written once against a TaskJob. Run as a task, its questions go to `inputRequests` and come
 * back through tasks/update; run synchronously (a client that did not declare the extension), the same questions go
 * out as an MRTR `input_required` result and come back in the retried call's `inputResponses`.
 */
import {
  inputRequired,
  inputResponse,
  ProtocolError,
  type CallToolResult,
  type InputRequest,
  type Tool,
} from "@modelcontextprotocol/server";
import * as z from "zod";
import type { TaskJob } from "./tasks-store.ts";

/**
 * - `sync`: never a task.
 * - `task`: a task when the request declared the extension, else run synchronously.
 * - `task-required`: only as a task; a request without the extension gets -32021.
 */
export type TaskSupport = "sync" | "task" | "task-required";

export interface ToolEnv {
  /** The time one step of build_report and deploy_with_approval takes (tests make it short). */
  stepMs: number;
}

export interface FixtureTool {
  tool: Tool;
  /** The arguments it takes (checked before anything runs). */
  args: z.ZodObject;
  support: TaskSupport;
  /** Whether the tool asks the person something (the client must declare `elicitation`). */
  asks?: boolean;
  /** Questions asked through MRTR before any task exists; their answers reach `work` as `gathered`. */
  gather?: Record<string, InputRequest>;
  work(args: Record<string, unknown>, job: TaskJob, gathered: Record<string, unknown>, env: ToolEnv): Promise<CallToolResult>;
}

/** A tool result of one text block. */
export const text = (value: string, isError = false): CallToolResult => ({
  content: [{ type: "text", text: value }],
  ...(isError ? { isError: true } : {}),
});

function define<S extends z.ZodObject>(
  name: string,
  description: string,
  args: S,
  rest: Omit<FixtureTool, "tool" | "work" | "args"> & {
    work(args: z.infer<S>, job: TaskJob, gathered: Record<string, unknown>, env: ToolEnv): Promise<CallToolResult>;
  },
): FixtureTool {
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(args) as Record<string, unknown>;
  return {
    ...rest,
    args,
    tool: { name, description, inputSchema: inputSchema as Tool["inputSchema"] },
    work: (raw, job, gathered, env) => rest.work(args.parse(raw), job, gathered, env),
  };
}

/** A form question (elicitation/create) as an input request. */
function form(message: string, properties: Record<string, unknown>, required: string[]): InputRequest {
  return inputRequired.elicit({ mode: "form", message, requestedSchema: { type: "object", properties, required } as never });
}

/** The content of an accepted answer, or undefined when the person declined or cancelled. */
function accepted(answers: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const view = inputResponse(answers, key);
  return view.kind === "elicit" && view.action === "accept" ? (view.content ?? {}) : undefined;
}

const REPORT_STEPS = ["Gathering sources", "Reading", "Analysing findings", "Drafting", "Checking facts", "Formatting"];

export const FIXTURE_TOOLS: FixtureTool[] = [
  define("greet", "Says hello at once (never a task).", z.object({ name: z.string() }), {
    support: "sync",
    work: async ({ name }) => text(`Hello, ${name}!`),
  }),
  define(
    "slow_compute",
    "Computes for `seconds` seconds, as a task when the client supports tasks.",
    z.object({ seconds: z.number().min(0).max(600), label: z.string().optional() }),
    {
      support: "task",
      work: async ({ seconds, label }, job) => {
        const name = label ?? "compute";
        job.progress(`Computing ${name} for ${seconds} s…`);
        await job.sleep(seconds * 1000);
        return text(`${name}: done after ${seconds} s`);
      },
    },
  ),
  define("failing_job", "Runs for about a second, then reports a tool error (a task only).", z.object({}), {
    support: "task-required",
    work: async (_args, job) => {
      job.progress("Running a job that will fail…");
      await job.sleep(1000);
      return text("failing_job: the job ran and failed (simulated tool error).", true);
    },
  }),
  define("protocol_error_job", "Crashes with a protocol error after half a second.", z.object({}), {
    support: "task",
    work: async (_args, job) => {
      await job.sleep(500);
      throw new ProtocolError(-32603, "protocol_error_job: the job crashed (simulated internal failure).");
    },
  }),
  define("confirm_delete", "Asks for confirmation, then (pretends to) delete the file.", z.object({ filename: z.string() }), {
    support: "task",
    asks: true,
    work: async ({ filename }, job) => {
      const answers = await job.ask(
        { confirm: form(`Delete ${filename}?`, { confirm: { type: "boolean", title: "Delete it" } }, ["confirm"]) },
        `Waiting for confirmation to delete ${filename}`,
      );
      const content = accepted(answers, "confirm");
      return text(content?.confirm === true ? `Deleted ${filename}.` : `Kept ${filename}.`);
    },
  }),
  define("multi_input", "Asks two questions at once and reports both answers.", z.object({}), {
    support: "task",
    asks: true,
    work: async (_args, job) => {
      const answers = await job.ask(
        {
          name: form("Which name should the job use?", { name: { type: "string", title: "Name" } }, ["name"]),
          confirm: form("Run the job now?", { confirm: { type: "boolean", title: "Run now" } }, ["confirm"]),
        },
        "Waiting for two answers",
      );
      return text(
        `multi_input: name ${JSON.stringify(accepted(answers, "name") ?? null)}, confirm ${JSON.stringify(accepted(answers, "confirm") ?? null)}`,
      );
    },
  }),
  define("test_tool_with_task", "Asks your name (MRTR) first, then greets you from a task.", z.object({}), {
    support: "task-required",
    asks: true,
    gather: { user_name: form("What is your name?", { name: { type: "string", title: "Name" } }, ["name"]) },
    work: async (_args, job, gathered) => {
      const name = accepted(gathered, "user_name")?.name;
      job.progress("Preparing the greeting…");
      await job.sleep(200);
      return text(`Hello, ${typeof name === "string" ? name : "stranger"}! (name gathered before the task started)`);
    },
  }),
  define(
    "build_report",
    "Builds a report on a topic in a few steps, reporting each step while it works.",
    z.object({ topic: z.string(), steps: z.number().int().min(1).max(REPORT_STEPS.length).optional() }),
    {
      support: "task",
      work: async ({ topic, steps = 4 }, job, _gathered, { stepMs }) => {
        const done: string[] = [];
        for (let i = 0; i < steps; i++) {
          job.progress(`Step ${i + 1}/${steps}: ${REPORT_STEPS[i]} on ${topic}…`);
          await job.sleep(stepMs);
          done.push(`- ${REPORT_STEPS[i]}: done`);
        }
        return text(`# Report: ${topic}\n\n${done.join("\n")}\n\nAll ${steps} steps completed.`);
      },
    },
  ),
  define(
    "deploy_with_approval",
    "Builds and checks a service, then waits for your approval before deploying it.",
    z.object({ service: z.string() }),
    {
      support: "task-required",
      asks: true,
      work: async ({ service }, job, _gathered, { stepMs }) => {
        job.progress(`Building ${service}…`);
        await job.sleep(stepMs);
        job.progress(`Running checks on ${service}…`);
        await job.sleep(stepMs);
        const answers = await job.ask(
          {
            approval: form(
              `Deploy ${service} to production?`,
              {
                approve: { type: "boolean", title: "Approve the deployment" },
                reason: { type: "string", title: "Reason", description: "Why (optional)" },
              },
              ["approve"],
            ),
          },
          `Checks passed; waiting for approval to deploy ${service}`,
        );
        const content = accepted(answers, "approval");
        const reason = typeof content?.reason === "string" && content.reason ? ` (${content.reason})` : "";
        if (content?.approve !== true) return text(`${service} was not deployed: approval was not given${reason}.`);
        job.progress(`Deploying ${service}…`);
        await job.sleep(stepMs);
        return text(`Deployed ${service}${reason}.`);
      },
    },
  ),
];
