// Types for scripts/package.mjs.
export declare const VSIX_PATH: string;
export declare const VSIX_BUDGET_BYTES: number;
export declare const VSCE: string;
export declare function packageExtension(options?: { quiet?: boolean; preRelease?: boolean; out?: string }): { path: string; bytes: number };
