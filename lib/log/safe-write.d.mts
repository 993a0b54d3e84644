import type { LogFields, LogFormat, LogLevel } from "./format.mjs";

/** Write one log line (warn and error to stderr, the rest to stdout; the other one when a stream is broken). Never throws. */
export declare function writeLog(level: LogLevel, msg: string, fields: LogFields | undefined, format: LogFormat): void;
/** Lines written or tried, lines dropped, and the streams found broken (with their error code). */
export declare function logWriteStats(): { attempts: number; dropped: number; broken: Partial<Record<"stdout" | "stderr", string>> };
