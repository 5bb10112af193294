import type { Plugin } from 'esbuild';
export declare const EDITOR_SHARED: string[];
export declare const shareWithActivation: Plugin;
