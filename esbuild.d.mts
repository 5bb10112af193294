/** Types for esbuild.mjs (imported by test/unit/bundle/esmBundle.test.ts). */
import type { BuildOptions } from 'esbuild';
export declare const hostOptions: BuildOptions;
export declare const REQUIRE_BANNER: string;
export declare function addRequire<T extends { path: string; text: string }>(files: T[]): { path: string; text: string }[];
export declare const CHAT_RENDERER_FILE: string;
/** The chat webview's two builds: the page (dist/webview/chat.js) and its renderer (dist/webview/chat-renderer.js). */
export declare const chatWebviewOptions: BuildOptions[];
