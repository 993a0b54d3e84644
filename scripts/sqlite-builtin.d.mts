export declare function builtinSqlite(): { DatabaseSync: new (file: string, options?: { readOnly?: boolean }) => unknown } | undefined;
