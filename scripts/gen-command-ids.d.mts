/** Types for scripts/gen-command-ids.mjs (imported by test/unit/config.test.ts and featureCommands.test.ts). */
export declare const OUTPUT: string;
export declare const MANIFEST: string;
export declare function renderCommandIds(manifest: { contributes?: { commands?: { command: string }[] } }): string;
/** The data part of src/features.ts, in activation order. */
export declare function readFeatureManifest(text?: string): { name: string; groups: string[] }[];
export declare function featureOfGroup(features: readonly { name: string; groups: readonly string[] }[]): Map<string, string>;
export declare function featureOf(id: string, owners?: Map<string, string>): string;
