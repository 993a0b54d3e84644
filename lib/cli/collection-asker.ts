/**
 * `toolscope test`'s answers to the requests a server sends in the middle of a call (elicitation, sampling, roots):
 * the call's prepared answer by method when the collection has one, else what a client with nobody at the keyboard
 * answers (the client core's unattended rules), so an unanswered question never hangs a CI run.
 */
import { preparedServerAnswer } from "../collections/index.ts";
import { pingAnswer, unattendedAsker, type ServerRequestAsker } from "@/lib/upstream";

export function collectionAsker(answers: Readonly<Record<string, unknown>>): ServerRequestAsker {
  const fallback = unattendedAsker("toolscope test runs unattended, and the collection call has no prepared answer for it");
  return {
    async ask(request, signal) {
      const ping = pingAnswer(request);
      if (ping) return ping;
      const answer = preparedServerAnswer(answers, String(request.method));
      if (answer) return { answer: { result: answer }, answeredBy: "prepared" };
      return fallback.ask(request, signal);
    },
  };
}
