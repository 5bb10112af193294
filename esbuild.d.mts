/** Types for esbuild.mjs (imported by test/unit/bundle/esmBundle.test.ts). */
import type { BuildOptions } from 'esbuild';
export declare const hostOptions: BuildOptions;
export declare const REQUIRE_BANNER: string;
export declare function addRequire<T extends { path: string; text: string }>(files: T[]): { path: string; text: string }[];
