/** The language model vendor id under which the gateway's models reach VS Code's chat (package.json languageModelChatProviders). */
export const LM_VENDOR = 'ai-gateway';
