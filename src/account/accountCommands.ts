/** The account feature's part of dist/editor.js (reached through accountCommands() in accountApi.ts). */
export { registerHostingCommands } from './hostingCommands';
export { registerUsageCommands } from './usageCommands';
