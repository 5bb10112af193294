/** Types for bench/vscodeStandIn.cjs. */
export declare function installVscodeStandIn(dir: string, api?: string, member?: string): string;
export declare const stub: string;
