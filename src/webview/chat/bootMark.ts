/**
 * Imported first by the chat's entry, so it runs before any other module of the bundle: marks when the
 * chat's script began to run. bench/chatOpen.ts reads it (with the mark set once the page is built) to
 * split a first open into the script's fetch, its evaluation and the editor's own steps.
 */
performance.mark('aiGateway/chat/script');
