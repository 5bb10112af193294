/** Types for scripts/l10n.mjs (imported by test/unit/l10n/webviewStrings.test.ts). */
export declare const PSEUDO_LOCALE: string;
/** A source file's text as the extractor must see it: an import of src/core/l10n.ts as `@vscode/l10n`. */
export declare function asExtractorSource(file: string, text: string): string;
export declare function exportBundle(options?: { quiet?: boolean; outDir?: string }): Promise<Record<string, string | { message: string; comment: string[] }>>;
export declare function writePseudo(options?: { quiet?: boolean }): string[];
export declare function removePseudo(): void;
