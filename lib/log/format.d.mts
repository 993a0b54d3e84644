export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFormat = "json" | "text";
export type LogFields = Record<string, string | number | boolean | undefined | null | object>;
export declare const LOG_LEVELS: readonly LogLevel[];
export declare function logSettings(env: Record<string, string | undefined>): { level: LogLevel; format: LogFormat };
export declare function shouldLog(level: LogLevel, min: LogLevel): boolean;
export declare function formatLogLine(level: LogLevel, msg: string, fields: LogFields | undefined, format: LogFormat, now?: Date): string;
