/** Command ids of the foundation (keys, log). Declared in package.json with category "AI Gateway". */
export const KeyCommands = {
  add: 'aiGateway.addApiKey',
  switch: 'aiGateway.switchApiKey',
  remove: 'aiGateway.removeApiKey',
  check: 'aiGateway.checkApiKey',
  rotate: 'aiGateway.rotateApiKey',
  showLog: 'aiGateway.showLog',
} as const;
