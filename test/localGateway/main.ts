/**
 * `npm run gateway [-- --port N]`: runs the local gateway until Ctrl+C. PORT env or --port selects the
 * port (default 8787; 0 picks a free one).
 */
import { canaryKey, LOCAL_KEYS } from './keys';
import { startGateway } from './server';

function portFromArgs(argv: readonly string[]): number | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--port') return Number(argv[i + 1]);
    if (arg.startsWith('--port=')) return Number(arg.slice('--port='.length));
  }
  return undefined;
}

async function main(): Promise<void> {
  const port = portFromArgs(process.argv.slice(2)) ?? (process.env.PORT !== undefined ? Number(process.env.PORT) : 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`Invalid port: ${String(port)}`);
    process.exit(2);
  }
  const gateway = await startGateway({ port, logRequests: true });
  console.log(`AI Gateway (local) listening on ${gateway.url}`);
  console.log(`  Set aiGateway.baseUrl to ${gateway.url}`);
  console.log('  Local keys (fake, local only):');
  const rows: Array<[string, string, string]> = [
    ['userFull', canaryKey() !== undefined ? '(AI_GATEWAY_CANARY_KEY, not shown)' : LOCAL_KEYS.userFull, 'User, Full access'],
    ['accountFull', LOCAL_KEYS.accountFull, 'Account, Full access'],
    ['userReadOnly', LOCAL_KEYS.userReadOnly, 'User, Read only'],
    ['userChatOnly', LOCAL_KEYS.userChatOnly, 'User, Restricted: chat=write'],
    ['userMcpRead', LOCAL_KEYS.userMcpRead, 'User, Restricted: chat=write, mcp=read'],
    ['userMcpOnly', LOCAL_KEYS.userMcpOnly, 'User, Restricted: mcp=write'],
    ['revoked', LOCAL_KEYS.revoked, 'revoked (401)'],
  ];
  for (const [name, secret, what] of rows) console.log(`    ${name.padEnd(13)} ${secret.padEnd(44)} ${what}`);
  console.log('  Control: GET/POST /__control/{events,faults,config,keys}, POST /__control/reset. Ctrl+C to stop.');

  let stopping = false;
  const stop = (): void => {
    if (stopping) process.exit(1);
    stopping = true;
    void gateway.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
