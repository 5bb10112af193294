/**
 * `npm start`'s arguments (scripts/start.ts), read apart from the launch so a test can check them
 * (test/unit/startArgs.test.ts).
 *
 *   npm start -- --locale es     the sandbox in Spanish (also --locale=de; `en` for English)
 *   AI_GATEWAY_SANDBOX_LOCALE=de npm start    the same through a variable (the argument wins)
 *
 * The languages are the extension's own translations (l10n/bundle.l10n.<locale>.json); without either,
 * the sandbox keeps the display language it had (Configure Display Language).
 */
export const SANDBOX_LOCALES = ['en', 'es', 'de'] as const;
export type SandboxLocale = (typeof SANDBOX_LOCALES)[number];

export interface StartArgs {
  /** The display language to start code-server in; undefined keeps the sandbox's own. */
  locale?: SandboxLocale;
}

export class StartArgsError extends Error {}

const USAGE = `Usage: npm start [-- --locale ${SANDBOX_LOCALES.join('|')}]   (or AI_GATEWAY_SANDBOX_LOCALE=${SANDBOX_LOCALES.join('|')})`;

function locale(value: string | undefined, from: string): SandboxLocale {
  const v = (value ?? '').trim().toLowerCase();
  const hit = SANDBOX_LOCALES.find((l) => l === v);
  if (!hit) throw new StartArgsError(`${from}: "${value ?? ''}" is not one of ${SANDBOX_LOCALES.join(', ')}.\n${USAGE}`);
  return hit;
}

/** Reads `process.argv.slice(2)` and the environment; throws StartArgsError with the usage on anything else. */
export function parseStartArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): StartArgs {
  const out: StartArgs = {};
  const fromEnv = env.AI_GATEWAY_SANDBOX_LOCALE?.trim();
  if (fromEnv) out.locale = locale(fromEnv, 'AI_GATEWAY_SANDBOX_LOCALE');
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--locale') out.locale = locale(argv[++i], '--locale');
    else if (a.startsWith('--locale=')) out.locale = locale(a.slice('--locale='.length), '--locale');
    else if (a === '--help' || a === '-h') throw new StartArgsError(USAGE);
    else throw new StartArgsError(`Unknown argument "${a}".\n${USAGE}`);
  }
  return out;
}
