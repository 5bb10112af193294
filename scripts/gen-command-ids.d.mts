/** Types for scripts/gen-command-ids.mjs (imported by test/unit/config.test.ts). */
export declare const OUTPUT: string;
export declare function renderCommandIds(manifest: { contributes?: { commands?: { command: string }[] } }): string;
export declare const FEATURE_OF_GROUP: Record<string, string>;
export declare function featureOf(id: string): string;
