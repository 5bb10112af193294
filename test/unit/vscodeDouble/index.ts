/**
 * [#40.1] The `vscode` test double for the unit tier: `import * as vscode from 'vscode'` in src/ resolves
 * here (register.mjs) when the unit tier runs, so editor glue is tested in plain Node 20.
 *
 * Two faces: `vscode` (module.cjs hands it to src/ as the `vscode` module) behaves like the editor with
 * in-memory state; `double` (import it in tests) scripts the answers the user gives and reads what
 * was shown, run, written. `double.reset()` (call it in beforeEach) forgets all of it.
 * A name the double does not have throws "vscode double: X not implemented" instead of being undefined.
 */
import Module from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as l10nCore from '../../../src/core/l10n';

// Loading the double also points `vscode` at it for CommonJS requires (what register.mjs does), so a
// test file whose FIRST import is this module also runs with plain `node --import tsx --test <file>`.
const RESOLVE_PATCHED = Symbol.for('vscodeDouble.resolvePatched');
const loader = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string; [RESOLVE_PATCHED]?: boolean };
if (!loader[RESOLVE_PATCHED]) {
  loader[RESOLVE_PATCHED] = true;
  const resolveFilename = loader._resolveFilename;
  const target = join(__dirname, 'module.cjs');
  loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
    return request === 'vscode' ? target : resolveFilename.call(this, request, ...rest);
  };
}

type Fn = (...args: any[]) => any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A prototype that throws a clear error for every name the double does not define. */
function strict<T extends object>(name: string, obj: T): T {
  const thrower = new Proxy(Object.create(null) as object, {
    get(_t, prop) {
      if (typeof prop === 'symbol') return undefined;
      if (prop in Object.prototype) return (Object.prototype as Any)[prop];
      if (prop === 'then' || prop === '__esModule' || prop === 'default' || prop === 'toJSON' || prop === 'inspect' || prop.startsWith('$$') || prop === 'asymmetricMatch' || prop === 'nodeType') return undefined;
      throw new Error(`vscode double: ${name}.${prop} not implemented (add it to test/unit/vscodeDouble/index.ts)`);
    },
    has: (_t, prop) => prop in Object.prototype,
  });
  Object.setPrototypeOf(obj, thrower);
  return obj;
}

// ---------------------------------------------------------------------------------------------------
// Basic types
// ---------------------------------------------------------------------------------------------------

export class Disposable {
  private done = false;
  constructor(private readonly callOnDispose: () => unknown) {}
  static from(...items: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => items.forEach((d) => d.dispose()));
  }
  dispose(): void {
    if (this.done) return;
    this.done = true;
    this.callOnDispose();
  }
}

export type Event<T> = (listener: (e: T) => unknown, thisArgs?: unknown, disposables?: Disposable[]) => Disposable;

export class EventEmitter<T> {
  private listeners = new Set<(e: T) => unknown>();
  private disposed = false;
  readonly event: Event<T> = (listener, thisArgs, disposables) => {
    const l = (e: T) => listener.call(thisArgs, e);
    this.listeners.add(l);
    const d = new Disposable(() => this.listeners.delete(l));
    disposables?.push(d);
    return d;
  };
  fire(data: T): void {
    if (this.disposed) return;
    for (const l of [...this.listeners]) l(data);
  }
  /** Inspection: how many listeners are subscribed. */
  get listenerCount(): number {
    return this.listeners.size;
  }
  dispose(): void {
    this.disposed = true;
    this.listeners.clear();
  }
}

export interface CancellationToken {
  isCancellationRequested: boolean;
  onCancellationRequested: Event<unknown>;
}

export class CancellationTokenSource {
  private emitter = new EventEmitter<unknown>();
  private cancelled = false;
  readonly token: CancellationToken;
  constructor() {
    const isCancelled = () => this.cancelled;
    const subscribe: Event<unknown> = (listener, thisArgs, disposables) => {
      if (this.cancelled) {
        queueMicrotask(() => listener.call(thisArgs, undefined));
        return new Disposable(() => undefined);
      }
      return this.emitter.event(listener, thisArgs, disposables);
    };
    this.token = {
      get isCancellationRequested() {
        return isCancelled();
      },
      onCancellationRequested: subscribe,
    };
  }
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.emitter.fire(undefined);
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

export class CancellationError extends Error {
  constructor() {
    super('Canceled');
    this.name = 'Canceled';
  }
}

export class Uri {
  private constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query: string,
    readonly fragment: string,
  ) {}
  static file(fsPath: string): Uri {
    let p = fsPath.replace(/\\/g, '/');
    if (!p.startsWith('/')) p = '/' + p;
    return new Uri('file', '', p, '', '');
  }
  static parse(value: string): Uri {
    const m = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!m) throw new Error(`vscode double: Uri.parse cannot read ${JSON.stringify(value)}`);
    const dec = (s: string | undefined) => {
      try {
        return decodeURIComponent(s ?? '');
      } catch {
        return s ?? '';
      }
    };
    return new Uri(m[1].toLowerCase(), dec(m[2]), dec(m[3]), dec(m[4]), dec(m[5]));
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '', c.fragment ?? '');
  }
  static joinPath(base: Uri, ...segments: string[]): Uri {
    const parts = [base.path, ...segments].join('/').split('/');
    const out: string[] = [];
    for (const s of parts) {
      if (s === '' || s === '.') continue;
      if (s === '..') out.pop();
      else out.push(s);
    }
    return base.with({ path: '/' + out.join('/') });
  }
  get fsPath(): string {
    return this.authority && this.scheme === 'file' ? `//${this.authority}${this.path}` : this.path;
  }
  with(c: { scheme?: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme ?? this.scheme, c.authority ?? this.authority, c.path ?? this.path, c.query ?? this.query, c.fragment ?? this.fragment);
  }
  toString(_skipEncoding?: boolean): string {
    const enc = (s: string) => encodeURI(s).replace(/[?#]/g, encodeURIComponent);
    let s = `${this.scheme}:`;
    if (this.authority || this.scheme === 'file') s += `//${this.authority}`;
    s += enc(this.path);
    if (this.query) s += `?${this.query}`;
    if (this.fragment) s += `#${this.fragment}`;
    return s;
  }
  toJSON(): unknown {
    return { $mid: 1, scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment, fsPath: this.fsPath };
  }
}

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
  isBefore(o: Position): boolean {
    return this.line < o.line || (this.line === o.line && this.character < o.character);
  }
  isBeforeOrEqual(o: Position): boolean {
    return this.isBefore(o) || this.isEqual(o);
  }
  isAfter(o: Position): boolean {
    return !this.isBeforeOrEqual(o);
  }
  isAfterOrEqual(o: Position): boolean {
    return !this.isBefore(o);
  }
  isEqual(o: Position): boolean {
    return this.line === o.line && this.character === o.character;
  }
  compareTo(o: Position): number {
    return this.isBefore(o) ? -1 : this.isEqual(o) ? 0 : 1;
  }
  translate(lineDelta = 0, characterDelta = 0): Position {
    return new Position(this.line + lineDelta, this.character + characterDelta);
  }
  with(line = this.line, character = this.character): Position {
    return new Position(line, character);
  }
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    const s = typeof a === 'number' ? new Position(a, b as number) : a;
    const e = typeof a === 'number' ? new Position(c as number, d as number) : (b as Position);
    [this.start, this.end] = s.isBeforeOrEqual(e) ? [s, e] : [e, s];
  }
  get isEmpty(): boolean {
    return this.start.isEqual(this.end);
  }
  get isSingleLine(): boolean {
    return this.start.line === this.end.line;
  }
  contains(p: Position | Range): boolean {
    if (p instanceof Range) return this.contains(p.start) && this.contains(p.end);
    return p.isAfterOrEqual(this.start) && p.isBeforeOrEqual(this.end);
  }
  isEqual(o: Range): boolean {
    return this.start.isEqual(o.start) && this.end.isEqual(o.end);
  }
  with(start = this.start, end = this.end): Range {
    return new Range(start, end);
  }
}

/** [#41.5] A place in a document: what a chat request's reference carries for an attached selection. */
export class Location {
  readonly range: Range;
  constructor(
    readonly uri: Uri,
    rangeOrPosition: Range | Position,
  ) {
    this.range = rangeOrPosition instanceof Position ? new Range(rangeOrPosition, rangeOrPosition) : rangeOrPosition;
  }
}

export class Selection extends Range {
  readonly anchor: Position;
  readonly active: Position;
  constructor(a: Position | number, b: Position | number, c?: number, d?: number) {
    const anchor = typeof a === 'number' ? new Position(a, b as number) : a;
    const active = typeof a === 'number' ? new Position(c as number, d as number) : (b as Position);
    super(anchor, active);
    this.anchor = anchor;
    this.active = active;
  }
  get isReversed(): boolean {
    return this.anchor.isAfter(this.active);
  }
}

// ---------------------------------------------------------------------------------------------------
// Enums and small classes
// ---------------------------------------------------------------------------------------------------

export const ProgressLocation = { SourceControl: 1, Window: 10, Notification: 15 } as const;
export const ConfigurationTarget = { Global: 1, Workspace: 2, WorkspaceFolder: 3 } as const;
export const ViewColumn = { Active: -1, Beside: -2, One: 1, Two: 2, Three: 3 } as const;
export const StatusBarAlignment = { Left: 1, Right: 2 } as const;
export const TreeItemCollapsibleState = { None: 0, Collapsed: 1, Expanded: 2 } as const;
export const QuickPickItemKind = { Separator: -1, Default: 0 } as const;
export const EndOfLine = { LF: 1, CRLF: 2 } as const;
export const DiagnosticSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 } as const;
export const DiagnosticTag = { Unnecessary: 1, Deprecated: 2 } as const;
export const FileType = { Unknown: 0, File: 1, Directory: 2, SymbolicLink: 64 } as const;
export const FileChangeType = { Changed: 1, Created: 2, Deleted: 3 } as const;
export const ExtensionMode = { Production: 1, Development: 2, Test: 3 } as const;
export const TextEditorRevealType = { Default: 0, InCenter: 1, InCenterIfOutsideViewport: 2, AtTop: 3 } as const;
export const LanguageModelChatMessageRole = { User: 1, Assistant: 2 } as const;
export const LanguageModelChatToolMode = { Auto: 1, Required: 2 } as const;
export const CompletionItemKind = { Text: 0, Method: 1, Function: 2, Value: 11, Keyword: 13, Snippet: 14, File: 16, Reference: 17 } as const;
export const CompletionItemTag = { Deprecated: 1 } as const;
export const UIKind = { Desktop: 1, Web: 2 } as const;

export class CodeActionKind {
  static readonly Empty = new CodeActionKind('');
  static readonly QuickFix = new CodeActionKind('quickfix');
  static readonly Refactor = new CodeActionKind('refactor');
  static readonly Source = new CodeActionKind('source');
  constructor(readonly value: string) {}
  append(part: string): CodeActionKind {
    return new CodeActionKind(this.value ? `${this.value}.${part}` : part);
  }
  contains(o: CodeActionKind): boolean {
    return this.value === '' || o.value === this.value || o.value.startsWith(this.value + '.');
  }
}

export class ThemeIcon {
  static readonly File = new ThemeIcon('file');
  static readonly Folder = new ThemeIcon('folder');
  constructor(
    readonly id: string,
    readonly color?: ThemeColor,
  ) {}
}
export class ThemeColor {
  constructor(readonly id: string) {}
}

export class MarkdownString {
  isTrusted?: boolean | { enabledCommands: readonly string[] };
  supportHtml = false;
  supportThemeIcons?: boolean;
  constructor(
    public value = '',
    supportThemeIcons?: boolean,
  ) {
    this.supportThemeIcons = supportThemeIcons;
  }
  appendText(value: string): this {
    this.value += value.replace(/[\\`*_{}[\]()#+\-.!<>]/g, '\\$&');
    return this;
  }
  appendMarkdown(value: string): this {
    this.value += value;
    return this;
  }
  appendCodeblock(code: string, language = ''): this {
    this.value += `\n\`\`\`${language}\n${code}\n\`\`\`\n`;
    return this;
  }
}

export class TreeItem {
  label?: string | { label: string };
  id?: string;
  description?: string | boolean;
  tooltip?: string | MarkdownString;
  iconPath?: unknown;
  command?: { command: string; title: string; arguments?: unknown[] };
  contextValue?: string;
  resourceUri?: Uri;
  accessibilityInformation?: { label: string; role?: string };
  collapsibleState?: number;
  constructor(labelOrUri: string | { label: string } | Uri, collapsibleState: number = TreeItemCollapsibleState.None) {
    if (labelOrUri instanceof Uri) this.resourceUri = labelOrUri;
    else this.label = labelOrUri;
    this.collapsibleState = collapsibleState;
  }
}

export class Diagnostic {
  source?: string;
  code?: string | number | { value: string | number; target: Uri };
  tags?: number[];
  relatedInformation?: unknown[];
  constructor(
    public range: Range,
    public message: string,
    public severity: number = DiagnosticSeverity.Error,
  ) {}
}

export class CodeAction {
  edit?: WorkspaceEdit;
  command?: unknown;
  diagnostics?: Diagnostic[];
  isPreferred?: boolean;
  constructor(
    public title: string,
    public kind?: CodeActionKind,
  ) {}
}

export class CompletionItem {
  detail?: string;
  documentation?: string | MarkdownString;
  insertText?: string;
  range?: Range;
  tags?: number[];
  sortText?: string;
  filterText?: string;
  constructor(
    public label: string | { label: string },
    public kind?: number,
  ) {}
}
export class CompletionList {
  constructor(
    public items: CompletionItem[] = [],
    public isIncomplete = false,
  ) {}
}
export class Hover {
  constructor(
    public contents: unknown,
    public range?: Range,
  ) {}
}
export class RelativePattern {
  constructor(
    public base: Uri | { uri: Uri } | string,
    public pattern: string,
  ) {}
}

export class FileSystemError extends Error {
  constructor(
    messageOrUri: string | Uri = '',
    readonly code = 'Unknown',
  ) {
    super(`${String(messageOrUri)} (${code})`);
    this.name = `${code} (FileSystemError)`;
  }
  static FileNotFound(u?: string | Uri) {
    return new FileSystemError(u, 'FileNotFound');
  }
  static FileExists(u?: string | Uri) {
    return new FileSystemError(u, 'FileExists');
  }
  static FileNotADirectory(u?: string | Uri) {
    return new FileSystemError(u, 'FileNotADirectory');
  }
  static FileIsADirectory(u?: string | Uri) {
    return new FileSystemError(u, 'FileIsADirectory');
  }
  static NoPermissions(u?: string | Uri) {
    return new FileSystemError(u, 'NoPermissions');
  }
  static Unavailable(u?: string | Uri) {
    return new FileSystemError(u, 'Unavailable');
  }
}

export class LanguageModelTextPart {
  constructor(public value: string) {}
}
export class LanguageModelToolCallPart {
  constructor(
    public callId: string,
    public name: string,
    public input: object,
  ) {}
}
export class LanguageModelToolResultPart {
  constructor(
    public callId: string,
    public content: unknown[],
  ) {}
}
export class LanguageModelToolResult {
  constructor(public content: unknown[]) {}
}
// [glue2] prompt-tsx and data parts (stable after 1.104).
export class LanguageModelPromptTsxPart {
  constructor(public value: unknown) {}
}
export class LanguageModelDataPart {
  constructor(
    public data: Uint8Array,
    public mimeType: string,
  ) {}
  static json(value: unknown, mime = 'application/json'): LanguageModelDataPart {
    return new LanguageModelDataPart(new TextEncoder().encode(JSON.stringify(value)), mime);
  }
  static text(value: string, mime = 'text/plain'): LanguageModelDataPart {
    return new LanguageModelDataPart(new TextEncoder().encode(value), mime);
  }
}
export class LanguageModelError extends Error {
  constructor(
    message?: string,
    readonly code = 'Unknown',
  ) {
    super(message);
  }
  static NotFound(m?: string) {
    return new LanguageModelError(m, 'NotFound');
  }
  static NoPermissions(m?: string) {
    return new LanguageModelError(m, 'NoPermissions');
  }
  static Blocked(m?: string) {
    return new LanguageModelError(m, 'Blocked');
  }
}
export class McpHttpServerDefinition {
  constructor(
    public label: string,
    public uri: Uri,
    public headers: Record<string, string> = {},
    public version?: string,
  ) {}
}
export class TabInputText {
  constructor(readonly uri: Uri) {}
}
export class TabInputTextDiff {
  constructor(
    readonly original: Uri,
    readonly modified: Uri,
  ) {}
}
export class TabInputCustom {
  constructor(
    readonly uri: Uri,
    readonly viewType: string,
  ) {}
}

// ---------------------------------------------------------------------------------------------------
// Text documents and edits
// ---------------------------------------------------------------------------------------------------

export interface DoubleTextDocument {
  uri: Uri;
  fileName: string;
  languageId: string;
  version: number;
  isDirty: boolean;
  isUntitled: boolean;
  isClosed: boolean;
  eol: number;
  lineCount: number;
  getText(range?: Range): string;
  lineAt(lineOrPos: number | Position): { text: string; range: Range; lineNumber: number; isEmptyOrWhitespace: boolean; rangeIncludingLineBreak: Range; firstNonWhitespaceCharacterIndex: number };
  offsetAt(p: Position): number;
  positionAt(offset: number): Position;
  validateRange(r: Range): Range;
  validatePosition(p: Position): Position;
  getWordRangeAtPosition(p: Position, regex?: RegExp): Range | undefined;
  save(): Promise<boolean>;
  /** Inspection: replaces the text (bumps version); fires workspace.onDidChangeTextDocument. */
  setText(text: string): void;
}

let untitled = 0;
/** An in-memory TextDocument; CRLF text gives `eol === EndOfLine.CRLF` and offsets count the \r. */
export function createTextDocument(text: string, opts: { uri?: Uri | string; languageId?: string; version?: number } = {}): DoubleTextDocument {
  const uri = opts.uri === undefined ? Uri.from({ scheme: 'untitled', path: `Untitled-${++untitled}` }) : typeof opts.uri === 'string' ? Uri.parse(opts.uri) : opts.uri;
  let content = text;
  const lines = () => content.split(/\r?\n/);
  const starts = () => {
    const out = [0];
    for (let i = 0; i < content.length; i++) if (content[i] === '\n') out.push(i + 1);
    return out;
  };
  const doc: DoubleTextDocument = {
    uri,
    fileName: uri.fsPath,
    languageId: opts.languageId ?? 'plaintext',
    version: opts.version ?? 1,
    isDirty: false,
    isUntitled: uri.scheme === 'untitled',
    isClosed: false,
    get eol() {
      return content.includes('\r\n') ? EndOfLine.CRLF : EndOfLine.LF;
    },
    get lineCount() {
      return lines().length;
    },
    getText(range?: Range) {
      if (!range) return content;
      return content.slice(doc.offsetAt(range.start), doc.offsetAt(range.end));
    },
    lineAt(lp) {
      const n = typeof lp === 'number' ? lp : lp.line;
      const all = lines();
      if (n < 0 || n >= all.length) throw new Error(`vscode double: lineAt(${n}) out of range`);
      const t = all[n];
      const full = n + 1 < all.length ? new Range(n, 0, n + 1, 0) : new Range(n, 0, n, t.length);
      return { text: t, lineNumber: n, range: new Range(n, 0, n, t.length), rangeIncludingLineBreak: full, isEmptyOrWhitespace: t.trim() === '', firstNonWhitespaceCharacterIndex: t.length - t.trimStart().length };
    },
    offsetAt(p) {
      const s = starts();
      const line = Math.max(0, Math.min(p.line, s.length - 1));
      const len = lines()[line].length;
      return s[line] + Math.max(0, Math.min(p.character, len));
    },
    positionAt(offset) {
      const s = starts();
      const o = Math.max(0, Math.min(offset, content.length));
      let line = 0;
      while (line + 1 < s.length && s[line + 1] <= o) line++;
      return new Position(line, Math.min(o - s[line], lines()[line].length));
    },
    validateRange(r) {
      return new Range(doc.validatePosition(r.start), doc.validatePosition(r.end));
    },
    validatePosition(p) {
      return doc.positionAt(doc.offsetAt(p));
    },
    getWordRangeAtPosition(p, regex = /[\w-]+/g) {
      const t = doc.lineAt(p.line).text;
      const re = new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : regex.flags + 'g');
      for (const m of t.matchAll(re)) {
        const s = m.index ?? 0;
        if (s <= p.character && p.character <= s + m[0].length) return new Range(p.line, s, p.line, s + m[0].length);
      }
      return undefined;
    },
    async save() {
      doc.isDirty = false;
      state.saved.push(doc.uri.toString());
      return true;
    },
    setText(t: string) {
      content = t;
      doc.version++;
      state.onDidChangeTextDocument.fire({ document: doc, contentChanges: [], reason: undefined });
    },
  };
  return doc;
}

export type RecordedEdit =
  | { kind: 'replace'; uri: Uri; range: Range; newText: string }
  | { kind: 'createFile'; uri: Uri; options?: unknown }
  | { kind: 'deleteFile'; uri: Uri; options?: unknown }
  | { kind: 'renameFile'; uri: Uri; newUri: Uri; options?: unknown };

export class TextEdit {
  constructor(
    public range: Range,
    public newText: string,
  ) {}
  static replace(range: Range, newText: string) {
    return new TextEdit(range, newText);
  }
  static insert(p: Position, newText: string) {
    return new TextEdit(new Range(p, p), newText);
  }
  static delete(range: Range) {
    return new TextEdit(range, '');
  }
}

/** Records every edit in order (`edits`), and answers entries()/size like the real one. */
export class WorkspaceEdit {
  readonly edits: RecordedEdit[] = [];
  replace(uri: Uri, range: Range, newText: string, _metadata?: unknown): void {
    this.edits.push({ kind: 'replace', uri, range, newText });
  }
  insert(uri: Uri, position: Position, newText: string, _metadata?: unknown): void {
    this.replace(uri, new Range(position, position), newText);
  }
  delete(uri: Uri, range: Range, _metadata?: unknown): void {
    this.replace(uri, range, '');
  }
  set(uri: Uri, edits: ReadonlyArray<TextEdit>): void {
    for (const e of edits) this.replace(uri, e.range, e.newText);
  }
  createFile(uri: Uri, options?: unknown): void {
    this.edits.push({ kind: 'createFile', uri, options });
  }
  deleteFile(uri: Uri, options?: unknown): void {
    this.edits.push({ kind: 'deleteFile', uri, options });
  }
  renameFile(uri: Uri, newUri: Uri, options?: unknown): void {
    this.edits.push({ kind: 'renameFile', uri, newUri, options });
  }
  has(uri: Uri): boolean {
    return this.edits.some((e) => e.uri.toString() === uri.toString());
  }
  get(uri: Uri): TextEdit[] {
    return this.edits.flatMap((e) => (e.kind === 'replace' && e.uri.toString() === uri.toString() ? [new TextEdit(e.range, e.newText)] : []));
  }
  entries(): Array<[Uri, TextEdit[]]> {
    const seen = new Map<string, Uri>();
    for (const e of this.edits) if (e.kind === 'replace') seen.set(e.uri.toString(), e.uri);
    return [...seen.values()].map((u) => [u, this.get(u)]);
  }
  get size(): number {
    return new Set(this.edits.map((e) => e.uri.toString())).size;
  }
}

// ---------------------------------------------------------------------------------------------------
// Recorded state (the inspection side)
// ---------------------------------------------------------------------------------------------------

export interface MessageItemLike {
  title: string;
  isCloseAffordance?: boolean;
}
export interface ShownMessage {
  kind: 'message';
  severity: 'info' | 'warning' | 'error';
  message: string;
  options: { modal?: boolean; detail?: string };
  /** The items as given (strings or MessageItems), in order. */
  items: Array<string | MessageItemLike>;
  /** Their titles, in order. */
  titles: string[];
  /** The button VS Code draws as default for a modal: the first item that is not a close affordance. */
  defaultTitle: string | undefined;
}
export interface ShownQuickPick {
  kind: 'quickPick';
  items: Array<string | { label: string; [k: string]: unknown }>;
  labels: string[];
  options: Record<string, unknown>;
}
export interface ShownInputBox {
  kind: 'inputBox';
  options: Record<string, unknown>;
  /** What options.validateInput said about the scripted answer ('' or undefined when valid). */
  validation?: string;
}
export type Shown = ShownMessage | ShownQuickPick | ShownInputBox;
/** A scripted answer: a title/label/value, `undefined` (dismissed), a list of labels (canPickMany), or a function of what was shown. */
export type Answer = string | undefined | string[] | ((shown: Shown) => unknown);

export interface ProgressRecord {
  title: string | undefined;
  location: unknown;
  cancellable: boolean;
  reports: Array<{ message?: string; increment?: number }>;
  /** Cancels the token the task was given (the notification's Cancel button). */
  cancel(): void;
  done: boolean;
}

export interface FakeWebview {
  html: string;
  options: Record<string, unknown>;
  cspSource: string;
  asWebviewUri(u: Uri): Uri;
  postMessage(message: unknown): Promise<boolean>;
  onDidReceiveMessage: Event<unknown>;
  /** Inspection: every message the extension posted to the page. */
  posted: unknown[];
  /** Inspection: sends a message as if the page had posted it. */
  send(message: unknown): void;
}
function createWebview(): FakeWebview {
  const received = new EventEmitter<unknown>();
  const wv: FakeWebview = {
    html: '',
    options: {},
    cspSource: 'https://double.vscode-cdn.test',
    asWebviewUri: (u) => Uri.from({ scheme: 'https', authority: 'double.vscode-cdn.test', path: u.path }),
    postMessage: async (m) => {
      wv.posted.push(m);
      return true;
    },
    onDidReceiveMessage: received.event,
    posted: [],
    send: (m) => received.fire(m),
  };
  return wv;
}

export interface FakeWebviewPanel {
  viewType: string;
  title: string;
  webview: FakeWebview;
  options: Record<string, unknown>;
  viewColumn: number | undefined;
  active: boolean;
  visible: boolean;
  iconPath?: unknown;
  reveals: Array<{ viewColumn?: number; preserveFocus?: boolean }>;
  reveal(viewColumn?: number, preserveFocus?: boolean): void;
  onDidDispose: Event<void>;
  onDidChangeViewState: Event<unknown>;
  dispose(): void;
  disposed: boolean;
}

export interface FakeWebviewView {
  viewType: string;
  webview: FakeWebview;
  title?: string;
  description?: string;
  badge?: unknown;
  visible: boolean;
  shows: Array<boolean | undefined>;
  show(preserveFocus?: boolean): void;
  onDidDispose: Event<void>;
  onDidChangeVisibility: Event<void>;
  /** Inspection: hides/shows the view (fires onDidChangeVisibility). */
  setVisible(v: boolean): void;
  dispose(): void;
}

export interface FakeTreeView {
  id: string;
  options: Record<string, unknown>;
  message?: string;
  title?: string;
  description?: string;
  badge?: unknown;
  visible: boolean;
  selection: unknown[];
  reveals: Array<{ element: unknown; options: unknown }>;
  reveal(element: unknown, options?: unknown): Promise<void>;
  onDidChangeVisibility: Event<unknown>;
  onDidChangeSelection: Event<unknown>;
  onDidExpandElement: Event<unknown>;
  onDidCollapseElement: Event<unknown>;
  dispose(): void;
}

export interface FakeStatusBarItem {
  id?: string;
  alignment: number;
  priority?: number;
  text: string;
  tooltip?: unknown;
  command?: unknown;
  name?: string;
  color?: unknown;
  backgroundColor?: unknown;
  accessibilityInformation?: unknown;
  visible: boolean;
  show(): void;
  hide(): void;
  dispose(): void;
}

export interface FakeOutputChannel {
  name: string;
  lines: string[];
  logLevel: number;
  append(v: string): void;
  appendLine(v: string): void;
  replace(v: string): void;
  clear(): void;
  show(): void;
  hide(): void;
  dispose(): void;
  trace(m: string, ...a: unknown[]): void;
  debug(m: string, ...a: unknown[]): void;
  info(m: string, ...a: unknown[]): void;
  warn(m: string, ...a: unknown[]): void;
  error(m: string | Error, ...a: unknown[]): void;
  onDidChangeLogLevel: Event<number>;
}

type Scope = 'default' | 'global' | 'workspace' | 'workspaceFolder';

function freshState() {
  return {
    commands: new Map<string, Fn>(),
    executed: [] as Array<{ command: string; args: unknown[] }>,
    /** Answers for commands that are not registered (workbench.*, vscode.open, …): id → result or function. */
    commandResults: new Map<string, unknown>(),
    shown: [] as Shown[],
    answers: [] as Answer[],
    progress: [] as ProgressRecord[],
    statusMessages: [] as string[],
    clipboard: '',
    openedExternal: [] as Uri[],
    /** What openExternal was given, as text: a string exactly as passed (the real API accepts one), a Uri as its toString(). */
    openedExternalText: [] as string[],
    uriHandlers: [] as Array<{ handleUri(uri: Uri): void }>,
    config: { default: new Map<string, unknown>(), global: new Map<string, unknown>(), workspace: new Map<string, unknown>(), workspaceFolder: new Map<string, unknown>() } as Record<Scope, Map<string, unknown>>,
    configUpdates: [] as Array<{ key: string; value: unknown; target: unknown }>,
    appliedEdits: [] as WorkspaceEdit[],
    applyEditResult: true,
    saved: [] as string[],
    files: new Map<string, Uint8Array>(),
    dirs: new Set<string>(),
    documents: [] as DoubleTextDocument[],
    shownDocuments: [] as Array<{ uri: Uri; options: unknown }>,
    workspaceFolders: undefined as Array<{ uri: Uri; name: string; index: number }> | undefined,
    isTrusted: true,
    remoteName: undefined as string | undefined,
    language: 'en',
    activeTextEditor: undefined as Any,
    webviewPanels: [] as FakeWebviewPanel[],
    webviewViewProviders: new Map<string, Any>(),
    webviewViews: [] as FakeWebviewView[],
    treeViews: [] as FakeTreeView[],
    treeDataProviders: new Map<string, unknown>(),
    statusBarItems: [] as FakeStatusBarItem[],
    outputChannels: [] as FakeOutputChannel[],
    diagnosticCollections: new Map<string, Map<string, Diagnostic[]>>(),
    contentProviders: new Map<string, unknown>(),
    onDidChangeConfiguration: new EventEmitter<{ affectsConfiguration(section: string, scope?: unknown): boolean }>(),
    onDidChangeTextDocument: new EventEmitter<unknown>(),
    onDidOpenTextDocument: new EventEmitter<unknown>(),
    onDidCloseTextDocument: new EventEmitter<unknown>(),
    onDidSaveTextDocument: new EventEmitter<unknown>(),
    onDidChangeWorkspaceFolders: new EventEmitter<unknown>(),
    onDidGrantWorkspaceTrust: new EventEmitter<void>(),
    onDidChangeActiveTextEditor: new EventEmitter<unknown>(),
    onDidChangeWindowState: new EventEmitter<unknown>(),
    onDidChangeVisibleTextEditors: new EventEmitter<unknown>(),
    onDidChangeTextEditorSelection: new EventEmitter<unknown>(),
    onDidChangeSecrets: new EventEmitter<unknown>(),
    openDialogs: [] as Array<Record<string, unknown>>, // [glue2] window.showOpenDialog calls (options)
    lmChatProviders: new Map<string, Any>(), // [glue2] vscode.lm registrations
    lmMcpProviders: new Map<string, Any>(),
    lmTools: new Map<string, Any>(),
  };
}
let state = freshState();

// The manifest's setting defaults: getConfiguration answers them like the editor does.
const ROOT = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Any;
function manifestDefaults(): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const conf = manifest.contributes?.configuration;
  for (const block of Array.isArray(conf) ? conf : conf ? [conf] : []) {
    for (const [key, p] of Object.entries<Any>(block.properties ?? {})) if ('default' in p) out.set(key, p.default);
  }
  return out;
}
const DEFAULTS = manifestDefaults();

function scriptedAnswer(shown: Shown): unknown {
  state.shown.push(shown);
  if (state.answers.length === 0) return undefined;
  const a = state.answers.shift();
  return typeof a === 'function' ? a(shown) : a;
}

function titleOf(i: string | MessageItemLike): string {
  return typeof i === 'string' ? i : i.title;
}

function showMessage(severity: ShownMessage['severity']) {
  return async (message: string, ...rest: unknown[]): Promise<unknown> => {
    let options: ShownMessage['options'] = {};
    if (rest.length > 0 && rest[0] !== undefined && typeof rest[0] === 'object' && !('title' in (rest[0] as object))) options = rest.shift() as ShownMessage['options'];
    const items = rest.filter((x) => x !== undefined) as Array<string | MessageItemLike>;
    const titles = items.map(titleOf);
    const defaultItem = items.find((i) => typeof i === 'string' || !i.isCloseAffordance);
    const shown: ShownMessage = { kind: 'message', severity, message, options, items, titles, defaultTitle: defaultItem === undefined ? undefined : titleOf(defaultItem) };
    const a = scriptedAnswer(shown);
    if (a === undefined) return undefined;
    if (typeof a === 'object') return a; // a function returned the item itself
    const chosen = items.find((i) => titleOf(i) === a);
    if (chosen === undefined) throw new Error(`vscode double: the scripted answer ${JSON.stringify(a)} is not one of the buttons ${JSON.stringify(titles)} of "${message}"`);
    return chosen;
  };
}

function labelOf(i: unknown): string {
  return typeof i === 'string' ? i : String((i as { label: unknown }).label);
}

async function showQuickPick(itemsOrPromise: unknown, options: Record<string, unknown> = {}, token?: CancellationToken): Promise<unknown> {
  const items = (await itemsOrPromise) as ShownQuickPick['items'];
  if (token?.isCancellationRequested) return undefined;
  const shown: ShownQuickPick = { kind: 'quickPick', items, labels: items.map(labelOf), options };
  const a = scriptedAnswer(shown);
  if (a === undefined) return undefined;
  const pick = (label: string) => {
    const found = items.find((i) => labelOf(i) === label);
    if (found === undefined) throw new Error(`vscode double: the scripted answer ${JSON.stringify(label)} is not one of the items ${JSON.stringify(shown.labels)}`);
    return found;
  };
  if (Array.isArray(a)) return a.map((l) => pick(String(l)));
  if (typeof a === 'string') return options.canPickMany ? [pick(a)] : pick(a);
  return a;
}

async function showInputBox(options: Record<string, unknown> = {}, token?: CancellationToken): Promise<string | undefined> {
  if (token?.isCancellationRequested) return undefined;
  const shown: ShownInputBox = { kind: 'inputBox', options };
  const a = scriptedAnswer(shown);
  if (a === undefined) return undefined;
  const value = String(a);
  const validate = options.validateInput as ((v: string) => unknown) | undefined;
  if (validate) {
    const r = await validate(value);
    const msg = typeof r === 'string' ? r : r && typeof r === 'object' ? String((r as { message: unknown }).message ?? '') : undefined;
    shown.validation = msg ?? '';
    if (msg) return undefined; // the editor would not accept it; the user gave up
  }
  return value;
}

async function withProgress<R>(options: { title?: string; location: unknown; cancellable?: boolean }, task: (progress: { report(v: { message?: string; increment?: number }): void }, token: CancellationToken) => Thenable<R>): Promise<R> {
  const source = new CancellationTokenSource();
  const rec: ProgressRecord = { title: options.title, location: options.location, cancellable: !!options.cancellable, reports: [], cancel: () => source.cancel(), done: false };
  state.progress.push(rec);
  try {
    return await task({ report: (v) => void rec.reports.push(v) }, source.token);
  } finally {
    rec.done = true;
  }
}

function createWebviewPanel(viewType: string, title: string, showOptions: number | { viewColumn: number; preserveFocus?: boolean }, options: Record<string, unknown> = {}): FakeWebviewPanel {
  const disposed = new EventEmitter<void>();
  const viewState = new EventEmitter<unknown>();
  const panel: FakeWebviewPanel = {
    viewType,
    title,
    webview: createWebview(),
    options,
    viewColumn: typeof showOptions === 'number' ? showOptions : showOptions?.viewColumn,
    active: true,
    visible: true,
    reveals: [],
    reveal(viewColumn, preserveFocus) {
      panel.reveals.push({ viewColumn, preserveFocus });
      panel.visible = true;
    },
    onDidDispose: disposed.event,
    onDidChangeViewState: viewState.event,
    disposed: false,
    dispose() {
      if (panel.disposed) return;
      panel.disposed = true;
      panel.visible = false;
      disposed.fire();
    },
  };
  panel.webview.options = (options as Record<string, unknown>) ?? {};
  state.webviewPanels.push(panel);
  return panel;
}

function createWebviewView(viewType: string): FakeWebviewView {
  const disposed = new EventEmitter<void>();
  const visibility = new EventEmitter<void>();
  const view: FakeWebviewView = {
    viewType,
    webview: createWebview(),
    visible: true,
    shows: [],
    show(preserveFocus) {
      view.shows.push(preserveFocus);
      view.setVisible(true);
    },
    onDidDispose: disposed.event,
    onDidChangeVisibility: visibility.event,
    setVisible(v) {
      if (view.visible === v) return;
      view.visible = v;
      visibility.fire();
    },
    dispose: () => disposed.fire(),
  };
  return view;
}

function createTreeView(id: string, options: Record<string, unknown>): FakeTreeView {
  const vis = new EventEmitter<unknown>();
  const tv: FakeTreeView = {
    id,
    options,
    visible: true,
    selection: [],
    reveals: [],
    async reveal(element, opts) {
      tv.reveals.push({ element, options: opts });
    },
    onDidChangeVisibility: vis.event,
    onDidChangeSelection: new EventEmitter<unknown>().event,
    onDidExpandElement: new EventEmitter<unknown>().event,
    onDidCollapseElement: new EventEmitter<unknown>().event,
    dispose: () => undefined,
  };
  state.treeViews.push(tv);
  return tv;
}

function createStatusBarItem(a?: string | number, b?: number, c?: number): FakeStatusBarItem {
  const id = typeof a === 'string' ? a : undefined;
  const alignment = (typeof a === 'string' ? b : a) ?? StatusBarAlignment.Left;
  const priority = typeof a === 'string' ? c : b;
  const item: FakeStatusBarItem = { id, alignment, priority, text: '', visible: false, show: () => void (item.visible = true), hide: () => void (item.visible = false), dispose: () => void (item.visible = false) };
  state.statusBarItems.push(item);
  return item;
}

function createOutputChannel(name: string, opts?: string | { log: true }): FakeOutputChannel {
  const log = (level: string) => (m: unknown, ...a: unknown[]) => void ch.lines.push(`[${level}] ${m instanceof Error ? m.message : String(m)}${a.length ? ' ' + a.map(String).join(' ') : ''}`);
  const ch: FakeOutputChannel = {
    name,
    lines: [],
    logLevel: 2,
    append: (v) => {
      if (ch.lines.length === 0) ch.lines.push('');
      ch.lines[ch.lines.length - 1] += v;
    },
    appendLine: (v) => void ch.lines.push(v),
    replace: (v) => void (ch.lines = [v]),
    clear: () => void (ch.lines = []),
    show: () => undefined,
    hide: () => undefined,
    dispose: () => undefined,
    trace: log('trace'),
    debug: log('debug'),
    info: log('info'),
    warn: log('warning'),
    error: log('error'),
    onDidChangeLogLevel: new EventEmitter<number>().event,
  };
  void opts;
  state.outputChannels.push(ch);
  return ch;
}

function createDiagnosticCollection(name = 'default') {
  const map = new Map<string, Diagnostic[]>();
  state.diagnosticCollections.set(name, map);
  return {
    name,
    set(uriOrEntries: Uri | Array<[Uri, Diagnostic[] | undefined]>, diags?: Diagnostic[]) {
      if (Array.isArray(uriOrEntries)) for (const [u, d] of uriOrEntries) map.set(u.toString(), d ?? []);
      else map.set(uriOrEntries.toString(), diags ?? []);
    },
    get: (u: Uri) => map.get(u.toString()),
    has: (u: Uri) => map.has(u.toString()),
    delete: (u: Uri) => void map.delete(u.toString()),
    clear: () => map.clear(),
    forEach: (cb: (u: Uri, d: Diagnostic[]) => void) => map.forEach((d, u) => cb(Uri.parse(u), d)),
    dispose: () => map.clear(),
  };
}

// ------------------------------------ configuration ------------------------------------

function configuration(section?: string, _scope?: unknown) {
  const full = (key: string) => (section ? `${section}.${key}` : key);
  const lookup = (k: string) => {
    for (const s of ['workspaceFolder', 'workspace', 'global', 'default'] as Scope[]) if (state.config[s].has(k)) return { found: true, value: state.config[s].get(k) };
    if (DEFAULTS.has(k)) return { found: true, value: DEFAULTS.get(k) };
    // An object setting read as a whole: collect its dotted children.
    const prefix = k + '.';
    const keys = new Set<string>();
    for (const m of [DEFAULTS, ...(['default', 'global', 'workspace', 'workspaceFolder'] as Scope[]).map((s) => state.config[s])]) for (const key of m.keys()) if (key.startsWith(prefix)) keys.add(key);
    if (keys.size === 0) return { found: false, value: undefined };
    const obj: Record<string, unknown> = {};
    for (const key of keys) obj[key.slice(prefix.length)] = lookup(key).value;
    return { found: true, value: obj };
  };
  const cfg: Record<string, unknown> = {
    get(key: string, defaultValue?: unknown) {
      const r = lookup(full(key));
      return r.found && r.value !== undefined ? structuredClone(r.value) : defaultValue;
    },
    has: (key: string) => lookup(full(key)).found,
    inspect(key: string) {
      const k = full(key);
      return {
        key: k,
        defaultValue: state.config.default.has(k) ? state.config.default.get(k) : DEFAULTS.get(k),
        globalValue: state.config.global.get(k),
        workspaceValue: state.config.workspace.get(k),
        workspaceFolderValue: state.config.workspaceFolder.get(k),
      };
    },
    async update(key: string, value: unknown, target?: unknown) {
      const k = full(key);
      const scope: Scope = target === ConfigurationTarget.Workspace || target === false ? 'workspace' : target === ConfigurationTarget.WorkspaceFolder ? 'workspaceFolder' : target === undefined || target === null ? (state.workspaceFolders ? 'workspace' : 'global') : 'global';
      state.configUpdates.push({ key: k, value, target });
      if (value === undefined) state.config[scope].delete(k);
      else state.config[scope].set(k, value);
      fireConfigChange(k);
    },
  };
  return new Proxy(cfg, {
    get(t, prop) {
      if (typeof prop === 'string' && !(prop in t)) return lookup(full(prop)).value;
      return (t as Any)[prop];
    },
  });
}

function fireConfigChange(key: string) {
  state.onDidChangeConfiguration.fire({ affectsConfiguration: (section: string) => key === section || key.startsWith(section + '.') || section.startsWith(key + '.') });
}

// ------------------------------------ file system ------------------------------------

const key = (u: Uri) => u.with({ query: '', fragment: '' }).toString();
const parentKey = (u: Uri) => key(Uri.joinPath(u, '..'));
const fs = {
  async readFile(u: Uri): Promise<Uint8Array> {
    const f = state.files.get(key(u));
    if (!f) throw FileSystemError.FileNotFound(u);
    return f;
  },
  async writeFile(u: Uri, content: Uint8Array): Promise<void> {
    if (state.dirs.has(key(u))) throw FileSystemError.FileIsADirectory(u);
    state.files.set(key(u), content);
    mkdirs(Uri.joinPath(u, '..'));
  },
  async stat(u: Uri) {
    const k = key(u);
    if (state.files.has(k)) return { type: FileType.File, ctime: 0, mtime: 0, size: state.files.get(k)!.byteLength };
    if (state.dirs.has(k)) return { type: FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    throw FileSystemError.FileNotFound(u);
  },
  async readDirectory(u: Uri): Promise<Array<[string, number]>> {
    const k = key(u);
    if (!state.dirs.has(k)) throw FileSystemError.FileNotFound(u);
    const out: Array<[string, number]> = [];
    for (const f of state.files.keys()) if (parentKey(Uri.parse(f)) === k) out.push([Uri.parse(f).path.split('/').pop()!, FileType.File]);
    for (const d of state.dirs) if (d !== k && parentKey(Uri.parse(d)) === k) out.push([Uri.parse(d).path.split('/').pop()!, FileType.Directory]);
    return out.sort((a, b) => a[0].localeCompare(b[0]));
  },
  async createDirectory(u: Uri): Promise<void> {
    mkdirs(u);
  },
  async delete(u: Uri, options?: { recursive?: boolean }): Promise<void> {
    const k = key(u);
    if (state.files.delete(k)) return;
    if (!state.dirs.has(k)) throw FileSystemError.FileNotFound(u);
    const inside = [...state.files.keys(), ...state.dirs].filter((x) => x.startsWith(k + '/'));
    if (inside.length && !options?.recursive) throw FileSystemError.NoPermissions(u);
    for (const x of inside) {
      state.files.delete(x);
      state.dirs.delete(x);
    }
    state.dirs.delete(k);
  },
  async rename(from: Uri, to: Uri, options?: { overwrite?: boolean }): Promise<void> {
    const data = await fs.readFile(from);
    if (state.files.has(key(to)) && !options?.overwrite) throw FileSystemError.FileExists(to);
    await fs.writeFile(to, data);
    state.files.delete(key(from));
  },
  async copy(from: Uri, to: Uri, options?: { overwrite?: boolean }): Promise<void> {
    if (state.files.has(key(to)) && !options?.overwrite) throw FileSystemError.FileExists(to);
    await fs.writeFile(to, await fs.readFile(from));
  },
  isWritableFileSystem: (scheme: string) => (scheme === 'file' ? true : undefined),
};
function mkdirs(u: Uri) {
  let cur = u;
  while (cur.path !== '/' && cur.path !== '') {
    state.dirs.add(key(cur));
    cur = Uri.joinPath(cur, '..');
  }
  state.dirs.add(key(cur));
}

async function applyEdit(edit: WorkspaceEdit): Promise<boolean> {
  state.appliedEdits.push(edit);
  if (!state.applyEditResult) return false;
  // Text edits on documents the double knows: applied from the end so earlier offsets stay right.
  for (const [uri, edits] of edit.entries()) {
    const doc = state.documents.find((d) => d.uri.toString() === uri.toString());
    if (!doc) continue;
    let text = doc.getText();
    const withOffsets = edits.map((e) => ({ s: doc.offsetAt(e.range.start), e: doc.offsetAt(e.range.end), t: e.newText })).sort((a, b) => b.s - a.s);
    for (const x of withOffsets) text = text.slice(0, x.s) + x.t + text.slice(x.e);
    doc.setText(text);
    doc.isDirty = true;
  }
  return true;
}


async function openTextDocument(arg?: Uri | string | { content?: string; language?: string }): Promise<DoubleTextDocument> {
  if (arg === undefined || (typeof arg === 'object' && !(arg instanceof Uri))) {
    const o = (arg ?? {}) as { content?: string; language?: string };
    const doc = createTextDocument(o.content ?? '', { languageId: o.language ?? 'plaintext' });
    state.documents.push(doc);
    state.onDidOpenTextDocument.fire(doc);
    return doc;
  }
  const uri = typeof arg === 'string' ? Uri.file(arg) : arg;
  const known = state.documents.find((d) => d.uri.toString() === uri.toString());
  if (known) return known;
  const provided = await providedText(uri); // glue1: a registered provider's scheme
  const bytes = provided === undefined ? await fs.readFile(uri) : new TextEncoder().encode(provided);
  const ext = uri.path.split('.').pop() ?? '';
  const lang: Record<string, string> = { md: 'markdown', ts: 'typescript', js: 'javascript', json: 'json', html: 'html', txt: 'plaintext', py: 'python' };
  const doc = createTextDocument(new TextDecoder().decode(bytes), { uri, languageId: lang[ext] ?? 'plaintext' });
  state.documents.push(doc);
  state.onDidOpenTextDocument.fire(doc);
  return doc;
}

// [glue2] window.showOpenDialog: recorded in double.openDialogs, answered from the answer queue with a
// path or paths (or Uris); no answer is Cancel (undefined).
async function showOpenDialog(options: Record<string, unknown> = {}): Promise<Uri[] | undefined> {
  state.openDialogs.push(options);
  if (state.answers.length === 0) return undefined;
  const a = state.answers.shift() as unknown;
  if (a === undefined) return undefined;
  return (Array.isArray(a) ? a : [a]).map((p) => (p instanceof Uri ? p : Uri.file(String(p))));
}

// ------------------------------------ extension context ------------------------------------

export interface DoubleMemento {
  get<T>(key: string, defaultValue?: T): T | undefined;
  update(key: string, value: unknown): Promise<void>;
  keys(): readonly string[];
  setKeysForSync(keys: readonly string[]): void;
  /** Inspection: the stored values. */
  readonly values: Map<string, unknown>;
  syncedKeys: readonly string[];
}
function memento(): DoubleMemento {
  const values = new Map<string, unknown>();
  const m: DoubleMemento = {
    get: <T>(k: string, d?: T) => (values.has(k) ? (structuredClone(values.get(k)) as T) : d),
    update: async (k, v) => void (v === undefined ? values.delete(k) : values.set(k, structuredClone(v))),
    keys: () => [...values.keys()],
    setKeysForSync: (keys) => void (m.syncedKeys = keys),
    values,
    syncedKeys: [],
  };
  return m;
}

export interface DoubleSecretStorage {
  get(key: string): Promise<string | undefined>;
  store(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
  keys(): Promise<string[]>;
  onDidChange: Event<{ key: string }>;
  /** Inspection: the stored secrets. */
  readonly values: Map<string, string>;
}
function secretStorage(): DoubleSecretStorage {
  const values = new Map<string, string>();
  const changed = new EventEmitter<{ key: string }>();
  return {
    get: async (k) => values.get(k),
    store: async (k, v) => {
      values.set(k, v);
      changed.fire({ key: k });
    },
    delete: async (k) => {
      if (values.delete(k)) changed.fire({ key: k });
    },
    keys: async () => [...values.keys()],
    onDidChange: changed.event,
    values,
  };
}

export interface DoubleExtensionContext {
  subscriptions: Array<{ dispose(): unknown }>;
  secrets: DoubleSecretStorage;
  globalState: DoubleMemento;
  workspaceState: DoubleMemento;
  extensionUri: Uri;
  extensionPath: string;
  globalStorageUri: Uri;
  storageUri: Uri | undefined;
  logUri: Uri;
  extensionMode: number;
  extension: { id: string; packageJSON: unknown; extensionUri: Uri };
  asAbsolutePath(relative: string): string;
}
/** The temporary folders extensionContext() made: removed when the test process ends (a test may remove its own sooner). */
const contextHomes: string[] = [];
process.on('exit', () => {
  for (const home of contextHomes) rmSync(home, { recursive: true, force: true });
});
function extensionContext(over: Partial<DoubleExtensionContext> = {}): DoubleExtensionContext {
  const extensionUri = over.extensionUri ?? Uri.file(ROOT);
  // Code writes real files under these (the spend ledger, history): a fresh temporary folder per context,
  // never a fixed path on the machine, unless the test names its own.
  const home = over.globalStorageUri && over.storageUri && over.logUri ? '' : mkdtempSync(join(tmpdir(), 'vscode-double-'));
  if (home) contextHomes.push(home);
  const ctx: DoubleExtensionContext = {
    subscriptions: [],
    secrets: secretStorage(),
    globalState: memento(),
    workspaceState: memento(),
    extensionUri,
    extensionPath: extensionUri.fsPath,
    globalStorageUri: Uri.file(join(home, 'globalStorage')),
    storageUri: Uri.file(join(home, 'workspaceStorage')),
    logUri: Uri.file(join(home, 'logs')),
    extensionMode: ExtensionMode.Test,
    extension: { id: `${manifest.publisher}.${manifest.name}`, packageJSON: manifest, extensionUri },
    asAbsolutePath: (rel) => join(extensionUri.fsPath, rel),
    ...over,
  };
  return strict('ExtensionContext', ctx);
}

// ---------------------------------------------------------------------------------------------------
// The `vscode` module
// ---------------------------------------------------------------------------------------------------

const commands = strict('vscode.commands', {
  registerCommand(id: string, fn: Fn, thisArg?: unknown) {
    if (state.commands.has(id)) throw new Error(`command '${id}' already exists`);
    state.commands.set(id, thisArg ? fn.bind(thisArg) : fn);
    return new Disposable(() => state.commands.delete(id));
  },
  registerTextEditorCommand(id: string, fn: Fn) {
    return commands.registerCommand(id, (...args: unknown[]) => fn(state.activeTextEditor, undefined, ...args));
  },
  async executeCommand(id: string, ...args: unknown[]) {
    state.executed.push({ command: id, args });
    const fn = state.commands.get(id);
    if (fn) return fn(...args);
    const r = state.commandResults.get(id);
    return typeof r === 'function' ? r(...args) : r;
  },
  async getCommands(_filterInternal?: boolean) {
    return [...state.commands.keys()];
  },
});

// ------------------------- createQuickPick / createInputBox (#40.5, glue1) -------------------------
// The QuickInput objects behind multi-step inputs (src/platform/stepInput.ts) and live pick lists
// (src/account/idPicker.ts). show() records what is shown (as quickPicks / inputBoxes, with the live
// object as `input`) and takes the next scripted answer: a label is picked (a quick pick) or a value
// entered (an input box) and accepted; undefined hides it (Escape). A function answer gets what was
// shown and may type first (`shown.input.value = '…'` fires onDidChangeValue), then return a label or
// a value. An answer the input does not accept (a failed validation, no item) hides it: the user gave up.

interface LiveInput {
  title?: string;
  step?: number;
  totalSteps?: number;
  placeholder?: string;
  value: string;
  ignoreFocusOut: boolean;
  busy: boolean;
  enabled: boolean;
  shown: boolean;
  disposed: boolean;
}

function liveInput<E extends object>(extra: E): LiveInput & E & { changeValue: EventEmitter<string>; accept: EventEmitter<void>; hidden: EventEmitter<void> } {
  const changeValue = new EventEmitter<string>();
  let value = '';
  const input = {
    title: undefined,
    step: undefined,
    totalSteps: undefined,
    placeholder: undefined,
    ignoreFocusOut: false,
    busy: false,
    enabled: true,
    shown: false,
    disposed: false,
    get value() {
      return value;
    },
    set value(v: string) {
      if (v === value) return;
      value = v;
      changeValue.fire(v);
    },
    changeValue,
    accept: new EventEmitter<void>(),
    hidden: new EventEmitter<void>(),
    ...extra,
  };
  return input as never;
}

/** hide/dispose/events shared by both inputs. */
function wireInput(i: Any): void {
  i.onDidChangeValue = i.changeValue.event;
  i.onDidAccept = i.accept.event;
  i.onDidHide = i.hidden.event;
  i.hide = (): void => {
    if (!i.shown) return;
    i.shown = false;
    i.hidden.fire();
  };
  i.dispose = (): void => {
    i.hide();
    i.disposed = true;
  };
}

function inputOptions(i: LiveInput, more: Record<string, unknown>): Record<string, unknown> {
  return { title: i.title, step: i.step, totalSteps: i.totalSteps, placeholder: i.placeholder, ignoreFocusOut: i.ignoreFocusOut, ...more };
}

function createQuickPick(): Any {
  const activeChange = new EventEmitter<unknown[]>();
  const selectionChange = new EventEmitter<unknown[]>();
  let items: unknown[] = [];
  let activeItems: unknown[] = [];
  const pick: Any = liveInput({
    matchOnDescription: false,
    matchOnDetail: false,
    canSelectMany: false,
    selectedItems: [] as unknown[],
    buttons: [],
    onDidTriggerButton: new EventEmitter<unknown>().event,
    onDidTriggerItemButton: new EventEmitter<unknown>().event,
    onDidChangeActive: activeChange.event,
    onDidChangeSelection: selectionChange.event,
  });
  Object.defineProperty(pick, 'items', { get: () => items, set: (v: unknown[]) => void (items = [...v]), enumerable: true });
  Object.defineProperty(pick, 'activeItems', { get: () => activeItems, set: (v: unknown[]) => void ((activeItems = [...v]), activeChange.fire(activeItems)), enumerable: true });
  wireInput(pick);
  pick.show = (): void => {
    if (pick.shown) return;
    pick.shown = true;
    const shown = {
      kind: 'quickPick',
      get items() {
        return pick.items;
      },
      get labels() {
        return pick.items.map(labelOf);
      },
      options: inputOptions(pick, { activeLabels: pick.activeItems.map(labelOf), ...(pick.canSelectMany ? { canSelectMany: true, selectedLabels: pick.selectedItems.map(labelOf) } : {}) }),
      input: pick,
    } as ShownQuickPick & { input: unknown };
    const a = scriptedAnswer(shown);
    // canSelectMany: a list of labels is what is checked when Enter is pressed (Space on each); a refused Enter hides the pick (gave up).
    if (pick.canSelectMany && Array.isArray(a)) {
      const checked = a.map((l) => {
        const item = pick.items.find((i: unknown) => labelOf(i) === String(l));
        if (item === undefined) throw new Error(`vscode double: the scripted answer ${JSON.stringify(l)} is not one of the items ${JSON.stringify(pick.items.map(labelOf))}`);
        return item;
      });
      void Promise.resolve().then(() => {
        if (!pick.shown) return;
        pick.selectedItems = checked;
        selectionChange.fire(pick.selectedItems);
        pick.accept.fire();
        if (pick.shown) pick.hide();
      });
      return;
    }
    // Looked up at once (a function answer may have typed first), so a wrong label fails the caller.
    const found = a === undefined ? undefined : pick.items.find((i: unknown) => labelOf(i) === String(a));
    if (a !== undefined && found === undefined) throw new Error(`vscode double: the scripted answer ${JSON.stringify(a)} is not one of the items ${JSON.stringify(pick.items.map(labelOf))}`);
    void Promise.resolve().then(() => {
      if (!pick.shown) return;
      if (found === undefined) return pick.hide();
      pick.activeItems = [found];
      pick.selectedItems = [found];
      selectionChange.fire(pick.selectedItems);
      pick.accept.fire();
      if (pick.shown) pick.hide();
    });
  };
  return pick;
}

function createInputBox(): Any {
  const box: Any = liveInput({ prompt: undefined as string | undefined, password: false, validationMessage: undefined as unknown, valueSelection: undefined, buttons: [], onDidTriggerButton: new EventEmitter<unknown>().event });
  wireInput(box);
  box.show = (): void => {
    if (box.shown) return;
    box.shown = true;
    const shown: ShownInputBox & { input: unknown } = { kind: 'inputBox', options: inputOptions(box, { prompt: box.prompt, value: box.value, password: box.password }), input: box };
    const a = scriptedAnswer(shown);
    void Promise.resolve().then(() => {
      if (!box.shown) return;
      if (a === undefined) return box.hide();
      box.value = String(a);
      box.accept.fire();
      const msg = box.validationMessage;
      shown.validation = typeof msg === 'string' ? msg : msg && typeof msg === 'object' ? String((msg as { message: unknown }).message ?? '') : '';
      if (box.shown) box.hide();
    });
  };
  return box;
}

// ------------------------- registerFileSystemProvider (#40.5, glue1) -------------------------
// Providers registered per scheme (kept per double state, so reset() forgets them); openTextDocument
// on such a scheme, or on a TextDocumentContentProvider's scheme, reads through the provider.

const fsProvidersOf = new WeakMap<object, Map<string, Any>>();
function fileSystemProviders(): Map<string, Any> {
  let m = fsProvidersOf.get(state);
  if (!m) fsProvidersOf.set(state, (m = new Map()));
  return m;
}
function registerFileSystemProvider(scheme: string, provider: unknown, _options?: unknown): Disposable {
  fileSystemProviders().set(scheme, provider);
  return new Disposable(() => fileSystemProviders().delete(scheme));
}
/** The text a registered provider gives for `uri`, or undefined when no provider has its scheme. */
async function providedText(uri: Uri): Promise<string | undefined> {
  const fsp = fileSystemProviders().get(uri.scheme);
  if (fsp) return new TextDecoder().decode(await fsp.readFile(uri));
  const cp = state.contentProviders.get(uri.scheme) as Any;
  if (cp) return String((await cp.provideTextDocumentContent(uri, new CancellationTokenSource().token)) ?? '');
  return undefined;
}

// ------------------------- showSaveDialog (#40.5, glue1) -------------------------
// Each call is recorded (its options) and answers the next Uri queued with double.answerSaveDialog
// (none queued: the dialog was cancelled).

const saveDialogsOf = new WeakMap<object, { shown: Array<Record<string, unknown>>; answers: Array<Uri | undefined> }>();
function saveDialogs(): { shown: Array<Record<string, unknown>>; answers: Array<Uri | undefined> } {
  let d = saveDialogsOf.get(state);
  if (!d) saveDialogsOf.set(state, (d = { shown: [], answers: [] }));
  return d;
}
async function showSaveDialog(options: Record<string, unknown> = {}): Promise<Uri | undefined> {
  const d = saveDialogs();
  d.shown.push(options);
  return d.answers.shift();
}

const window = strict('vscode.window', {
  showSaveDialog, // glue1
  // Scripted by double.answer (glue1) unless a test drives pick lists itself (double.driveQuickPicks(), glue3).
  createQuickPick: (): unknown => (drivenQuickPicks ? createDrivenQuickPick() : createQuickPick()),
  createInputBox, // glue1
  showInformationMessage: showMessage('info'),
  showWarningMessage: showMessage('warning'),
  showErrorMessage: showMessage('error'),
  showQuickPick,
  showInputBox,
  showOpenDialog, // [glue2]
  withProgress,
  setStatusBarMessage(text: string, _hide?: unknown) {
    state.statusMessages.push(text);
    return new Disposable(() => undefined);
  },
  createWebviewPanel,
  registerWebviewViewProvider(viewId: string, provider: unknown, _options?: unknown) {
    state.webviewViewProviders.set(viewId, provider);
    return new Disposable(() => state.webviewViewProviders.delete(viewId));
  },
  registerWebviewPanelSerializer(_viewType: string, _serializer: unknown) {
    return new Disposable(() => undefined);
  },
  registerUriHandler(h: { handleUri(uri: Uri): void }) {
    state.uriHandlers.push(h);
    return new Disposable(() => state.uriHandlers.splice(state.uriHandlers.indexOf(h), 1));
  },
  registerTreeDataProvider(viewId: string, provider: unknown) {
    state.treeDataProviders.set(viewId, provider);
    return new Disposable(() => state.treeDataProviders.delete(viewId));
  },
  registerFileDecorationProvider(_p: unknown) {
    return new Disposable(() => undefined);
  },
  createTreeView,
  createStatusBarItem,
  createOutputChannel,
  async showTextDocument(docOrUri: DoubleTextDocument | Uri, options?: unknown) {
    const doc = docOrUri instanceof Uri ? await openTextDocument(docOrUri) : docOrUri;
    state.shownDocuments.push({ uri: doc.uri, options });
    const editor = double.setActiveEditor(doc);
    return editor;
  },
  get activeTextEditor() {
    return state.activeTextEditor;
  },
  get visibleTextEditors() {
    return state.activeTextEditor ? [state.activeTextEditor] : [];
  },
  get tabGroups() {
    return { all: [], activeTabGroup: { tabs: [], activeTab: undefined, viewColumn: 1 }, onDidChangeTabs: new EventEmitter<unknown>().event, onDidChangeTabGroups: new EventEmitter<unknown>().event, close: async () => true };
  },
  get state() {
    return { focused: true, active: true };
  },
  onDidChangeActiveTextEditor: (...a: Parameters<Event<unknown>>) => state.onDidChangeActiveTextEditor.event(...a),
  onDidChangeVisibleTextEditors: (...a: Parameters<Event<unknown>>) => state.onDidChangeVisibleTextEditors.event(...a),
  onDidChangeTextEditorSelection: (...a: Parameters<Event<unknown>>) => state.onDidChangeTextEditorSelection.event(...a),
  onDidChangeWindowState: (...a: Parameters<Event<unknown>>) => state.onDidChangeWindowState.event(...a),
});

// --- glue3: workspace.createFileSystemWatcher (events fire only when a test fires them) -------------
interface FakeFileSystemWatcher {
  pattern: unknown;
  onDidCreate: Event<Uri>;
  onDidChange: Event<Uri>;
  onDidDelete: Event<Uri>;
  /** Inspection: fires the watcher's events as the file system would. */
  fire(kind: 'create' | 'change' | 'delete', uri: Uri): void;
  dispose(): void;
}
function createFileSystemWatcher(pattern: unknown): FakeFileSystemWatcher {
  const e = { create: new EventEmitter<Uri>(), change: new EventEmitter<Uri>(), delete: new EventEmitter<Uri>() };
  return {
    pattern,
    onDidCreate: e.create.event,
    onDidChange: e.change.event,
    onDidDelete: e.delete.event,
    fire: (kind, uri) => e[kind].fire(uri),
    dispose: () => Object.values(e).forEach((x) => x.dispose()),
  };
}
// --- end glue3 ---------------------------------------------------------------------------------------

// --- glue3: workspace.findFiles over the in-memory files (double.writeFile) in the workspace folders ----
/** A glob (`**`, `*`, `?`, `{a,b}`) as a RegExp over a '/'-separated relative path. */
function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '{') re += '(?:';
    else if (c === '}') re += ')';
    else if (c === ',') re += '|';
    else re += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}
async function findFiles(include: string | RelativePattern, exclude?: string | null, maxResults?: number): Promise<Uri[]> {
  const baseOf = (b: RelativePattern['base']): string => (typeof b === 'string' ? Uri.file(b) : b instanceof Uri ? b : b.uri).path;
  const inc = typeof include === 'string' ? { base: undefined as string | undefined, re: globRegExp(include) } : { base: baseOf(include.base), re: globRegExp(include.pattern) };
  const exc = exclude ? globRegExp(exclude) : undefined;
  const out: Uri[] = [];
  for (const k of state.files.keys()) {
    const u = Uri.parse(k);
    const roots = inc.base !== undefined ? [inc.base] : (state.workspaceFolders ?? []).map((f) => f.uri.path);
    const root = roots.find((r) => u.path.startsWith(r.replace(/\/$/, '') + '/'));
    if (root === undefined) continue;
    const rel = u.path.slice(root.replace(/\/$/, '').length + 1);
    if (inc.re.test(rel) && !exc?.test(rel)) out.push(u);
  }
  return out.slice(0, maxResults ?? out.length);
}
// --- end glue3 findFiles -----------------------------------------------------------------------------

// --- glue3: window.createQuickPick (a QuickPick the test drives: type, accept, press an item button, hide) ---
export interface FakeQuickPick {
  title: string | undefined;
  placeholder: string | undefined;
  value: string;
  items: Array<{ label: string; [k: string]: unknown }>;
  selectedItems: Array<{ label: string; [k: string]: unknown }>;
  activeItems: Array<{ label: string; [k: string]: unknown }>;
  busy: boolean;
  matchOnDescription: boolean;
  matchOnDetail: boolean;
  canSelectMany: boolean;
  ignoreFocusOut: boolean;
  buttons: unknown[];
  /** Inspection: whether it is on screen, how often show() ran, and whether it was disposed. */
  visible: boolean;
  shows: number;
  disposed: boolean;
  onDidChangeValue: Event<string>;
  onDidAccept: Event<void>;
  onDidHide: Event<void>;
  onDidTriggerItemButton: Event<{ item: unknown; button: unknown }>;
  onDidTriggerButton: Event<unknown>;
  onDidChangeSelection: Event<unknown[]>;
  onDidChangeActive: Event<unknown[]>;
  show(): void;
  hide(): void;
  dispose(): void;
  /** Test actions: the user types `value`; picks the item labelled `label` and presses Enter; presses button `index` of that item. */
  type(value: string): void;
  accept(label: string): void;
  pressItemButton(label: string, index: number): void;
  /** canSelectMany: Space on the item labelled `label` (checks or unchecks it); Enter with what is checked. */
  toggle(label: string): void;
  enter(): void;
}
const createdQuickPicks: FakeQuickPick[] = [];
/** Set by double.driveQuickPicks(): window.createQuickPick makes pick lists the test drives step by step. */
let drivenQuickPicks = false;
function createDrivenQuickPick(): FakeQuickPick {
  const e = {
    value: new EventEmitter<string>(),
    accept: new EventEmitter<void>(),
    hide: new EventEmitter<void>(),
    itemButton: new EventEmitter<{ item: unknown; button: unknown }>(),
    button: new EventEmitter<unknown>(),
    selection: new EventEmitter<unknown[]>(),
    active: new EventEmitter<unknown[]>(),
  };
  const find = (label: string) => {
    const item = qp.items.find((i) => i.label === label);
    if (!item) throw new Error(`vscode double: no quick pick item ${JSON.stringify(label)} among ${JSON.stringify(qp.items.map((i) => i.label))}`);
    return item;
  };
  const qp: FakeQuickPick = {
    title: undefined,
    placeholder: undefined,
    value: '',
    items: [],
    selectedItems: [],
    activeItems: [],
    busy: false,
    matchOnDescription: false,
    matchOnDetail: false,
    canSelectMany: false,
    ignoreFocusOut: false,
    buttons: [],
    visible: false,
    shows: 0,
    disposed: false,
    onDidChangeValue: e.value.event,
    onDidAccept: e.accept.event,
    onDidHide: e.hide.event,
    onDidTriggerItemButton: e.itemButton.event,
    onDidTriggerButton: e.button.event,
    onDidChangeSelection: e.selection.event,
    onDidChangeActive: e.active.event,
    show() {
      qp.visible = true;
      qp.shows++;
    },
    hide() {
      if (!qp.visible) return;
      qp.visible = false;
      e.hide.fire();
    },
    dispose() {
      qp.hide();
      qp.disposed = true;
    },
    type(value) {
      qp.value = value;
      e.value.fire(value);
    },
    accept(label) {
      qp.selectedItems = [find(label)];
      e.selection.fire(qp.selectedItems);
      e.accept.fire();
    },
    toggle(label) {
      const item = find(label);
      qp.activeItems = [item];
      qp.selectedItems = qp.selectedItems.includes(item) ? qp.selectedItems.filter((i) => i !== item) : [...qp.selectedItems, item];
      e.selection.fire(qp.selectedItems);
    },
    enter() {
      e.accept.fire();
    },
    pressItemButton(label, index) {
      const item = find(label);
      const buttons = (item.buttons as unknown[] | undefined) ?? [];
      if (!(index in buttons)) throw new Error(`vscode double: the quick pick item ${JSON.stringify(label)} has no button ${index}`);
      // The workbench hides the picker while the action's own input is up (onDidHide fires).
      e.itemButton.fire({ item, button: buttons[index] });
    },
  };
  createdQuickPicks.push(qp);
  return qp;
}
// --- end glue3 createQuickPick -----------------------------------------------------------------------

const workspace = strict('vscode.workspace', {
  getConfiguration: configuration,
  onDidChangeConfiguration: (...a: Parameters<Event<{ affectsConfiguration(section: string): boolean }>>) => state.onDidChangeConfiguration.event(...a),
  onDidChangeTextDocument: (...a: Parameters<Event<unknown>>) => state.onDidChangeTextDocument.event(...a),
  onDidOpenTextDocument: (...a: Parameters<Event<unknown>>) => state.onDidOpenTextDocument.event(...a),
  onDidCloseTextDocument: (...a: Parameters<Event<unknown>>) => state.onDidCloseTextDocument.event(...a),
  onDidSaveTextDocument: (...a: Parameters<Event<unknown>>) => state.onDidSaveTextDocument.event(...a),
  onDidChangeWorkspaceFolders: (...a: Parameters<Event<unknown>>) => state.onDidChangeWorkspaceFolders.event(...a),
  onDidGrantWorkspaceTrust: (...a: Parameters<Event<void>>) => state.onDidGrantWorkspaceTrust.event(...a),
  fs,
  createFileSystemWatcher,
  findFiles,
  applyEdit,
  openTextDocument,
  get textDocuments() {
    return [...state.documents];
  },
  get workspaceFolders() {
    return state.workspaceFolders;
  },
  get isTrusted() {
    return state.isTrusted;
  },
  get name() {
    return state.workspaceFolders?.[0]?.name;
  },
  getWorkspaceFolder(u: Uri) {
    return state.workspaceFolders?.find((f) => u.toString() === f.uri.toString() || u.toString().startsWith(f.uri.toString() + '/'));
  },
  asRelativePath(pathOrUri: string | Uri, includeWorkspaceFolder?: boolean) {
    const u = typeof pathOrUri === 'string' ? Uri.file(pathOrUri) : pathOrUri;
    const folder = workspace.getWorkspaceFolder(u);
    if (!folder) return typeof pathOrUri === 'string' ? pathOrUri : u.fsPath;
    const rel = u.path.slice(folder.uri.path.length).replace(/^\//, '');
    return includeWorkspaceFolder && (state.workspaceFolders?.length ?? 0) > 1 ? `${folder.name}/${rel}` : rel;
  },
  registerFileSystemProvider, // glue1
  registerTextDocumentContentProvider(scheme: string, provider: unknown) {
    state.contentProviders.set(scheme, provider);
    return new Disposable(() => state.contentProviders.delete(scheme));
  },
});

const env = strict('vscode.env', {
  clipboard: {
    readText: async () => state.clipboard,
    writeText: async (v: string) => void (state.clipboard = v),
  },
  async openExternal(u: Uri | string) {
    state.openedExternal.push(typeof u === 'string' ? Uri.parse(u) : u);
    state.openedExternalText.push(typeof u === 'string' ? u : u.toString());
    return true;
  },
  get language() {
    return state.language;
  },
  get remoteName() {
    return state.remoteName;
  },
  appName: 'Visual Studio Code (double)',
  appHost: 'desktop',
  uriScheme: 'vscode',
  machineId: 'double-machine',
  sessionId: 'double-session',
  uiKind: UIKind.Desktop,
  isTelemetryEnabled: false,
  onDidChangeTelemetryEnabled: new EventEmitter<boolean>().event,
  async asExternalUri(u: Uri) {
    return u;
  },
});

const l10n = strict('vscode.l10n', {
  t: l10nCore.t,
  bundle: undefined,
  uri: undefined,
});

const languages = strict('vscode.languages', {
  createDiagnosticCollection,
  async setTextDocumentLanguage(doc: DoubleTextDocument, languageId: string) {
    doc.languageId = languageId;
    return doc;
  },
  registerCodeActionsProvider: (_s: unknown, _p: unknown, _m?: unknown) => new Disposable(() => undefined),
  registerHoverProvider: (_s: unknown, _p: unknown) => new Disposable(() => undefined),
  registerCompletionItemProvider: (_s: unknown, _p: unknown, ..._t: string[]) => new Disposable(() => undefined),
});

const extensions = strict('vscode.extensions', {
  get all() {
    return [{ id: `${manifest.publisher}.${manifest.name}`, packageJSON: manifest, extensionUri: Uri.file(ROOT), isActive: true }];
  },
  getExtension(id: string) {
    return extensions.all.find((e) => e.id.toLowerCase() === id.toLowerCase());
  },
  onDidChange: new EventEmitter<void>().event,
});

// [glue2] vscode.lm: the registrations, for tests to reach the providers (double.lm*).
const lm = strict('vscode.lm', {
  registerLanguageModelChatProvider(vendor: string, provider: unknown) {
    state.lmChatProviders.set(vendor, provider);
    return new Disposable(() => state.lmChatProviders.delete(vendor));
  },
  registerMcpServerDefinitionProvider(id: string, provider: unknown) {
    state.lmMcpProviders.set(id, provider);
    return new Disposable(() => state.lmMcpProviders.delete(id));
  },
  registerTool(name: string, tool: unknown) {
    state.lmTools.set(name, tool);
    return new Disposable(() => state.lmTools.delete(name));
  },
  get tools() {
    return [...state.lmTools.keys()].map((name) => ({ name, description: '', inputSchema: undefined, tags: [] }));
  },
});

/** What src/ sees as the `vscode` module. */
export const vscode = strict('vscode', {
  version: '1.104.0-double',
  commands,
  window,
  workspace,
  env,
  l10n,
  languages,
  extensions,
  lm, // [glue2]
  Disposable,
  EventEmitter,
  CancellationTokenSource,
  CancellationError,
  Uri,
  Position,
  Range,
  Location,
  Selection,
  TextEdit,
  WorkspaceEdit,
  ProgressLocation,
  ConfigurationTarget,
  ViewColumn,
  StatusBarAlignment,
  TreeItemCollapsibleState,
  QuickPickItemKind,
  EndOfLine,
  DiagnosticSeverity,
  DiagnosticTag,
  FileType,
  FileChangeType,
  ExtensionMode,
  TextEditorRevealType,
  LanguageModelChatMessageRole,
  LanguageModelChatToolMode,
  CompletionItemKind,
  CompletionItemTag,
  UIKind,
  CodeActionKind,
  ThemeIcon,
  ThemeColor,
  MarkdownString,
  TreeItem,
  Diagnostic,
  CodeAction,
  CompletionItem,
  CompletionList,
  Hover,
  RelativePattern,
  FileSystemError,
  LanguageModelTextPart,
  LanguageModelToolCallPart,
  LanguageModelToolResultPart,
  LanguageModelToolResult,
  LanguageModelPromptTsxPart, // [glue2]
  LanguageModelDataPart, // [glue2]
  LanguageModelError,
  McpHttpServerDefinition,
  TabInputText,
  TabInputTextDiff,
  TabInputCustom,
});

// ---------------------------------------------------------------------------------------------------
// The inspection API tests use
// ---------------------------------------------------------------------------------------------------

export const double = {
  /** Forgets everything: commands, answers, what was shown, settings, files, documents, views. Call in beforeEach. */
  reset(): void {
    state = freshState();
    createdQuickPicks.length = 0; // glue3
    drivenQuickPicks = false;
  },
  /** Queues answers, consumed in order by showInformation/Warning/ErrorMessage, showQuickPick, showInputBox. An empty queue answers undefined (dismissed). */
  answer(...answers: Answer[]): void {
    state.answers.push(...answers);
  },
  /** Answers not used yet (a test can assert none are left). */
  get pendingAnswers(): readonly Answer[] {
    return state.answers;
  },
  /** Every message, quick pick and input box shown, in order. */
  get shown(): readonly Shown[] {
    return state.shown;
  },
  get messages(): readonly ShownMessage[] {
    return state.shown.filter((s): s is ShownMessage => s.kind === 'message');
  },
  get quickPicks(): readonly ShownQuickPick[] {
    return state.shown.filter((s): s is ShownQuickPick => s.kind === 'quickPick');
  },
  get inputBoxes(): readonly ShownInputBox[] {
    return state.shown.filter((s): s is ShownInputBox => s.kind === 'inputBox');
  },
  /** Registered commands (id → handler). */
  get commands(): ReadonlyMap<string, Fn> {
    return state.commands;
  },
  /** Every executeCommand call, registered or not, in order. */
  get executed(): ReadonlyArray<{ command: string; args: unknown[] }> {
    return state.executed;
  },
  /** What executeCommand answers for a command nobody registered (a value, or a function of the args). */
  commandResult(id: string, result: unknown): void {
    state.commandResults.set(id, result);
  },
  get progress(): readonly ProgressRecord[] {
    return state.progress;
  },
  get statusMessages(): readonly string[] {
    return state.statusMessages;
  },
  get clipboard(): string {
    return state.clipboard;
  },
  get openedExternal(): readonly Uri[] {
    return state.openedExternal;
  },
  get openedExternalText(): readonly string[] {
    return state.openedExternalText;
  },
  /** The browser coming back to the editor: hands `uri` to every registered URI handler (window.registerUriHandler). */
  openUri(uri: Uri): void {
    for (const h of [...state.uriHandlers]) h.handleUri(uri);
  },
  /** Sets a setting at one scope ('default' overrides the manifest's default). */
  setConfig(key: string, value: unknown, scope: Scope = 'global'): void {
    if (value === undefined) state.config[scope].delete(key);
    else state.config[scope].set(key, value);
    fireConfigChange(key);
  },
  get configUpdates(): ReadonlyArray<{ key: string; value: unknown; target: unknown }> {
    return state.configUpdates;
  },
  get appliedEdits(): readonly WorkspaceEdit[] {
    return state.appliedEdits;
  },
  /** What workspace.applyEdit answers (false: the editor refused the edit). */
  set applyEditResult(v: boolean) {
    state.applyEditResult = v;
  },
  /** Writes a file into the in-memory workspace.fs (text or bytes). */
  writeFile(uri: Uri | string, content: string | Uint8Array): void {
    const u = typeof uri === 'string' ? Uri.file(uri) : uri;
    state.files.set(key(u), typeof content === 'string' ? new TextEncoder().encode(content) : content);
    mkdirs(Uri.joinPath(u, '..'));
  },
  readFile(uri: Uri | string): string | undefined {
    const f = state.files.get(key(typeof uri === 'string' ? Uri.file(uri) : uri));
    return f && new TextDecoder().decode(f);
  },
  /** An open in-memory document (workspace.textDocuments lists it). */
  openDocument(text: string, opts: { uri?: Uri | string; languageId?: string; version?: number } = {}): DoubleTextDocument {
    const doc = createTextDocument(text, opts);
    state.documents.push(doc);
    return doc;
  },
  /** Makes `doc` the active editor (selection defaults to the start); fires onDidChangeActiveTextEditor. */
  setActiveEditor(doc: DoubleTextDocument | undefined, selection?: Selection) {
    if (doc && !state.documents.includes(doc)) state.documents.push(doc);
    const sel = selection ?? new Selection(0, 0, 0, 0);
    const editor = doc && {
      document: doc,
      selection: sel,
      selections: [sel],
      viewColumn: ViewColumn.One,
      visibleRanges: [new Range(0, 0, doc.lineCount, 0)],
      options: {},
      revealed: [] as Range[],
      revealRange(r: Range) {
        editor!.revealed.push(r);
      },
      async edit(cb: (b: { replace(r: Range, t: string): void; insert(p: Position, t: string): void; delete(r: Range): void }) => void) {
        const we = new WorkspaceEdit();
        cb({ replace: (r, t) => we.replace(doc.uri, r, t), insert: (p, t) => we.insert(doc.uri, p, t), delete: (r) => we.delete(doc.uri, r) });
        return applyEdit(we);
      },
      setDecorations: () => undefined,
    };
    state.activeTextEditor = editor;
    state.onDidChangeActiveTextEditor.fire(editor);
    return editor;
  },
  get documents(): readonly DoubleTextDocument[] {
    return state.documents;
  },
  get shownDocuments(): ReadonlyArray<{ uri: Uri; options: unknown }> {
    return state.shownDocuments;
  },
  setWorkspaceFolders(paths: Array<string | Uri> | undefined): void {
    state.workspaceFolders = paths?.map((p, index) => {
      const uri = typeof p === 'string' ? Uri.file(p) : p;
      return { uri, name: uri.path.split('/').pop() ?? '', index };
    });
    state.onDidChangeWorkspaceFolders.fire({});
  },
  set isTrusted(v: boolean) {
    state.isTrusted = v;
    if (v) state.onDidGrantWorkspaceTrust.fire();
  },
  set remoteName(v: string | undefined) {
    state.remoteName = v;
  },
  set language(v: string) {
    state.language = v;
  },
  get webviewPanels(): readonly FakeWebviewPanel[] {
    return state.webviewPanels;
  },
  get webviewViews(): readonly FakeWebviewView[] {
    return state.webviewViews;
  },
  /** Resolves the registered WebviewViewProvider for `viewId` as the workbench does when the view opens. */
  async resolveWebviewView(viewId: string, viewState?: unknown): Promise<FakeWebviewView> {
    const provider = state.webviewViewProviders.get(viewId);
    if (!provider) throw new Error(`vscode double: no WebviewViewProvider registered for ${viewId}`);
    const view = createWebviewView(viewId);
    state.webviewViews.push(view);
    await provider.resolveWebviewView(view, { state: viewState }, new CancellationTokenSource().token);
    return view;
  },
  /** From now until reset(), window.createQuickPick makes pick lists the test drives itself (createdQuickPicks) instead of answering from double.answer. */
  driveQuickPicks(): void {
    drivenQuickPicks = true;
  },
  /** glue3: every QuickPick made with window.createQuickPick (drive it with type/accept/pressItemButton/hide). */
  get createdQuickPicks(): readonly FakeQuickPick[] {
    return createdQuickPicks;
  },
  get treeViews(): readonly FakeTreeView[] {
    return state.treeViews;
  },
  get statusBarItems(): readonly FakeStatusBarItem[] {
    return state.statusBarItems;
  },
  get outputChannels(): readonly FakeOutputChannel[] {
    return state.outputChannels;
  },
  diagnostics(collection: string): ReadonlyMap<string, Diagnostic[]> | undefined {
    return state.diagnosticCollections.get(collection);
  },
  /** A fresh ExtensionContext: in-memory secrets, globalState/workspaceState, subscriptions. */
  extensionContext,
  createTextDocument,
  /** Fires window.onDidChangeWindowState (e.g. `{ focused: true }` when the window gets focus). */
  fireWindowState(s: { focused: boolean; active?: boolean }): void {
    state.onDidChangeWindowState.fire({ active: s.focused, ...s });
  },
  /** [glue2] vscode.lm registrations: chat providers by vendor, MCP definition providers by id, tools by name. */
  get lmChatProviders(): ReadonlyMap<string, Any> {
    return state.lmChatProviders;
  },
  get lmMcpProviders(): ReadonlyMap<string, Any> {
    return state.lmMcpProviders;
  },
  get lmTools(): ReadonlyMap<string, Any> {
    return state.lmTools;
  },
  /** [glue2] The options of every window.showOpenDialog call. */
  get openDialogs(): ReadonlyArray<Record<string, unknown>> {
    return state.openDialogs;
  },
  /** Fires workspace.onDidChangeConfiguration for `key` (after a test changed settings another way). */
  fireConfigurationChange: fireConfigChange,
  /** glue1: queues what the next showSaveDialog answers (undefined: cancelled). */
  answerSaveDialog(uri: Uri | string | undefined): void {
    saveDialogs().answers.push(typeof uri === 'string' ? Uri.file(uri) : uri);
  },
  /** glue1: the options of every showSaveDialog shown, in order. */
  get saveDialogs(): ReadonlyArray<Record<string, unknown>> {
    return saveDialogs().shown;
  },
  /** glue1: the FileSystemProvider registered for `scheme`. */
  fileSystemProvider(scheme: string): unknown {
    return fileSystemProviders().get(scheme);
  },
};
