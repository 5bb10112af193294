/** Types for bench/vscodeStandIn.cjs. */
export declare function installVscodeStandIn(dir: string): string;
export declare const stub: string;
