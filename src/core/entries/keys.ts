/** The keys feature's part of dist/core.js (reached through src/keys/keysApi.ts): the live key check and the rotation flow. */
export { checkKey, describeKeyCheck } from '../keys/keyCheck';
export { runRotation, temporaryReplacementName } from '../keys/rotation';
