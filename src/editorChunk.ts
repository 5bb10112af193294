/**
 * Entry of dist/editor.js: the command-time editor glue of the features (input boxes, quick picks,
 * notifications, the bodies of commands). Activation registers these commands as stubs
 * (src/commands.ts registerLazyCommands); each feature's façade (src/<feature>/<feature>Api.ts) loads
 * this chunk through src/lazy.ts on the first call, so none of it is in dist/extension.js.
 * One namespace per feature; a module here must not import another one's runtime values.
 */
export * as catalog from './catalog/catalogCommands';
export * as keys from './keys/keyCommands';
export * as account from './account/accountCommands';
export * as content from './content/contentCommands';
export * as knowledge from './knowledge/knowledgeCommands';
export * as lm from './lm/lmRequests';
export * as mcp from './mcp/mcpCommands';
export * as chat from './chat/chatWiring';
export * as media from './media/mediaCommands';
