// Types for scripts/package.mjs.
export declare const VSIX_PATH: string;
export declare const TRANSLATION_BUDGET_BYTES: number;
export declare const VSIX_BUDGET_BYTES: number;
export declare const VSCE: string;
export declare function packageExtension(options?: { quiet?: boolean; preRelease?: boolean; out?: string }): { path: string; bytes: number };
/** The built scripts (dist/*.mjs, dist/webview/*.js) missing from `shipped`, the paths `vsce ls` lists. */
export declare function missingFromVsix(shipped: string[]): string[];
