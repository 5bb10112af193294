/** Types for scripts/l10n.mjs (imported by test/unit/l10n/webviewStrings.test.ts). */
export declare const PSEUDO_LOCALE: string;
/** A source file's text as the extractor must see it: an import of src/core/l10n.ts as `@vscode/l10n`. */
export declare function asExtractorSource(file: string, text: string): string;
/** The messages of these source files (absolute paths), keyed as the bundles key them. */
export declare function extractMessages(files: readonly string[]): Promise<Record<string, string | { message: string; comment: string[] }>>;
/** For each page (name -> the source files of its scripts), the sorted bundle keys its scripts use. */
export declare function webviewKeys(pages: Readonly<Record<string, readonly string[]>>): Promise<Record<string, string[]>>;
export declare function exportBundle(options?: { quiet?: boolean; outDir?: string }): Promise<Record<string, string | { message: string; comment: string[] }>>;
export declare function writePseudo(options?: { quiet?: boolean }): string[];
export declare function removePseudo(): void;
