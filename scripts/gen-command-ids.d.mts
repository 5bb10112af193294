/** Types for scripts/gen-command-ids.mjs (imported by test/unit/config.test.ts). */
export declare const OUTPUT: string;
export declare function renderCommandIds(manifest: { contributes?: { commands?: { command: string }[] } }): string;
