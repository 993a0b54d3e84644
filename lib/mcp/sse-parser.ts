/** One parsed Server-Sent Event (without timing). */
export interface ParsedSseEvent {
  event?: string;
  id?: string;
  data: string;
}

/**
 * An incremental `text/event-stream` parser (WHATWG rules: fields per line, blank line dispatches,
 * `data` lines joined with "\n", comment lines ignored). Feed it decoded text as it arrives.
 */
export class SseParser {
  private buffer = "";
  private data: string[] = [];
  private event: string | undefined;
  private id: string | undefined;

  constructor(private readonly emit: (e: ParsedSseEvent) => void) {}

  push(text: string): void {
    this.buffer += text;
    let nl: number;
    while ((nl = this.buffer.search(/\r\n|\r|\n/)) >= 0) {
      const line = this.buffer.slice(0, nl);
      const sepLen = this.buffer.startsWith("\r\n", nl) ? 2 : 1;
      this.buffer = this.buffer.slice(nl + sepLen);
      this.line(line);
    }
  }

  private line(line: string): void {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id") this.id = value;
  }

  private dispatch(): void {
    if (this.data.length === 0 && this.event === undefined) return;
    const e: ParsedSseEvent = { data: this.data.join("\n") };
    if (this.event !== undefined) e.event = this.event;
    if (this.id !== undefined) e.id = this.id;
    this.data = [];
    this.event = undefined;
    this.emit(e);
  }
}
