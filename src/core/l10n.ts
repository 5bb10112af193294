/**
 * Translation for code that cannot import `vscode`: src/core (tested in plain Node) and the webviews.
 *
 * It follows `vscode.l10n.t` exactly, so one bundle serves both and `@vscode/l10n-dev export` finds
 * every call (it extracts any `l10n.t(…)`): the English message is the key, `{0}` / `{name}` are
 * placeholders, and a message with a comment is keyed `message/comment`. Import it as
 * `import * as l10n from '…/core/l10n'` and call `l10n.t('Deleted {0}', name)`.
 *
 * The extension host calls `configure` at activation with `vscode.l10n.bundle` and `vscode.env.language`;
 * a webview is configured from the strings its host sends. Without a bundle every call returns the
 * English message with its placeholders filled in, which is what the plain-Node tests see.
 */

export type L10nArg = string | number | boolean;
export type L10nBundle = Readonly<Record<string, string | { readonly message: string }>>;

export interface L10nMessage {
  readonly message: string;
  readonly args?: readonly L10nArg[] | Readonly<Record<string, L10nArg>>;
  /** For translators; part of the key, as in `vscode.l10n.t`. */
  readonly comment: string | readonly string[];
}

let bundle: L10nBundle | undefined;
let locale = 'en';

export function configure(options: { readonly bundle?: L10nBundle; readonly locale?: string }): void {
  bundle = options.bundle;
  locale = options.locale && isLocaleTag(options.locale) ? options.locale : 'en';
}

/**
 * What `configure` was given, for a webview's page (src/webviewKit/html.ts hands it to the page, whose
 * src/webview/kit/l10n.ts configures its own copy of this module with it before anything renders).
 */
export function current(): { readonly bundle?: L10nBundle; readonly locale: string } {
  return { bundle, locale };
}

/** The display language (a BCP 47 tag such as `de` or `pt-br`), for `Intl` formatting. */
export function displayLocale(): string {
  return locale;
}

export function t(message: string, ...args: L10nArg[]): string;
export function t(message: string, args: Readonly<Record<string, L10nArg>>): string;
export function t(options: L10nMessage): string;
export function t(first: string | L10nMessage, ...rest: unknown[]): string {
  if (typeof first === 'string') {
    const named = rest.length === 1 && typeof rest[0] === 'object' && rest[0] !== null ? (rest[0] as Record<string, L10nArg>) : undefined;
    return fill(lookup(first), named ?? (rest as L10nArg[]));
  }
  const comment = typeof first.comment === 'string' ? first.comment : first.comment.join('');
  return fill(lookup(first.message, `${first.message}/${comment}`), first.args ?? []);
}

function lookup(message: string, key = message): string {
  const entry = bundle?.[key];
  if (typeof entry === 'string') return entry;
  if (entry && typeof entry.message === 'string') return entry.message;
  return message;
}

// One pass, no backtracking: `{` then digits or an identifier then `}`.
const PLACEHOLDER = /\{(\d+|[A-Za-z_][A-Za-z0-9_]*)\}/g;

function fill(message: string, args: readonly L10nArg[] | Readonly<Record<string, L10nArg>>): string {
  return message.replace(PLACEHOLDER, (whole, name: string) => {
    const value = Array.isArray(args) ? args[Number(name)] : Object.prototype.hasOwnProperty.call(args, name) ? (args as Record<string, L10nArg>)[name] : undefined;
    return value === undefined ? whole : String(value);
  });
}

function isLocaleTag(value: string): boolean {
  if (value.length > 35 || !/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/.test(value)) return false;
  try {
    return Intl.getCanonicalLocales(value).length === 1;
  } catch {
    return false;
  }
}
