// Types for scripts/manifestNls.mjs (the manifest's "%key%" strings and their translations).
export declare const LOCALES: string[];
export declare function nlsKeyOf(value: unknown): string | undefined;
export declare function readMessages(locale?: string, root?: string): Record<string, string>;
export declare function readRawManifest<T = unknown>(root?: string): T;
export declare function localizeManifest<T>(manifest: T, messages: Record<string, unknown>, fallback?: Record<string, unknown>): T;
export declare function readManifest<T = unknown>(options?: { locale?: string; root?: string }): T;
export declare function userVisibleFields(manifest: unknown): Array<{ path: Array<string | number>; value: string }>;
export declare function referencedKeys(manifest: unknown): Set<string>;
