// Types for scripts/package.mjs.
export declare const VSIX_PATH: string;
export declare const TRANSLATION_BUDGET_BYTES: number;
export declare const PICTURES_BUDGET_BYTES: number;
export declare const CODE_BUDGET_BYTES: number;
export declare const VSIX_BUDGET_BYTES: number;
export declare const VSCE: string;
/** `pseudoLocale`: also ship the qps-ploc pseudo-locale (scripts/l10n.mjs), for the end-to-end tier only. */
export declare function packageExtension(options?: { quiet?: boolean; preRelease?: boolean; out?: string; pseudoLocale?: boolean }): { path: string; bytes: number };
/** The built scripts (dist/*.mjs, dist/webview/*.js) missing from `shipped`, the paths `vsce ls` lists. */
export declare function missingFromVsix(shipped: string[]): string[];
