/** The language model vendor id under which the gateway's models reach VS Code's chat (package.json languageModelChatProviders; src/lm/chatProvider.ts VENDOR, kept there so activation does not load this file). */
export const LM_VENDOR = 'ai-gateway';
