// Types for scripts/marketplaceReadme.mjs.
export declare const OPEN: string;
export declare const CLOSE: string;
export declare function marketplaceReadme(text: string): string;
