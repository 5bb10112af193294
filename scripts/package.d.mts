// Types for scripts/package.mjs.
export declare const VSIX_PATH: string;
export declare const VSIX_BUDGET_BYTES: number;
export declare function packageExtension(options?: { quiet?: boolean }): { path: string; bytes: number };
