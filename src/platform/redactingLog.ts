/**
 * The one "AI Gateway" log channel, with redaction made structural: every message written through it
 * passes redactSecrets, so no caller can forget (server text, exception messages and stack traces
 * included). Every string is also cut to MAX_LOG_MESSAGE_CHARS first, so a huge server answer can
 * neither flood the channel nor make the redaction costly. Everything else (show, clear, logLevel,
 * events) is the channel's own.
 */
import * as vscode from 'vscode';
import { redactLogArg } from '../core/log';

type LogMethod = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'append' | 'appendLine' | 'replace';
const REDACTED_METHODS = new Set<string>(['trace', 'debug', 'info', 'warn', 'error', 'append', 'appendLine', 'replace'] satisfies LogMethod[]);

export function createRedactingLog(name: string): vscode.LogOutputChannel {
  const channel = vscode.window.createOutputChannel(name, { log: true });
  return new Proxy(channel, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop === 'string' && REDACTED_METHODS.has(prop) && typeof value === 'function') {
        return (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args.map(redactLogArg));
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}
