// Types for scripts/provision-editor.mjs (imported by the TypeScript harness and npm start).
export declare const CODE_SERVER_VERSION: string;
export declare const NODE_MAJOR: number;
export declare const ROOT: string;
export declare const EDITOR_CACHE: string;
export declare const DEFAULT_CHROMIUM: string;
export declare class MissingPrerequisiteError extends Error {}
export declare function provisionNode24(options?: { log?: (line: string) => void }): string;
export declare function provisionCodeServer(node24: string, options?: { log?: (line: string) => void }): string;
export declare function findChromium(): string;
export declare function provisionEditor(options?: { chromium?: boolean; log?: (line: string) => void }): {
  node24: string;
  codeServerEntry: string;
  chromium: string | undefined;
};
