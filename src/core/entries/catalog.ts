/**
 * The catalog feature's part of dist/core.js (reached through src/catalog/catalogApi.ts): model
 * details for the Models view's tooltips (built on hover, after the catalog fetch has loaded the chunk
 * anyway) and the repricing notice.
 */
export { modelDetails } from '../catalog/details';
export { describeRateChanges, detectRepricing } from '../catalog/repricing';
