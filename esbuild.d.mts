/** Types for esbuild.mjs (imported by test/unit/bundle/esmBundle.test.ts). */
import type { BuildOptions } from 'esbuild';
export declare const hostOptions: BuildOptions;
export declare const REQUIRE_BANNER: string;
export declare function addRequire<T extends { path: string; text: string }>(files: T[]): { path: string; text: string }[];
export declare const CHAT_RENDERER_FILE: string;
/** The chat webview's two builds: the page (dist/webview/chat.js) and its renderer (dist/webview/chat-renderer.js). */
export declare const chatWebviewOptions: BuildOptions[];
/** The page that loads a webview script (a file name in dist/webview). */
export declare function l10nPageOf(script: string): string;
/** Where the build writes the page subsets of the translations, under its output directory. */
export declare const L10N_KEYS_PATH: string;
/** Page name -> the sorted translation keys its scripts use, from an in-memory build of every webview. */
export declare function webviewL10nKeys(): Promise<Record<string, string[]>>;
