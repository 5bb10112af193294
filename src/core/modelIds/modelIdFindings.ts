/**
 * What the editor says about the model ids of one document: the scanner's tokens judged against the
 * cached catalog at a given instant (tests pass a fixed clock).
 *  - a removed model (G-CAT-11) is an error: requests naming it are rejected;
 *  - a deprecated one (G-CAT-10) a warning with its removal date and the days left, and the alternative
 *    its description names (src/core/catalog/alternative.ts);
 *  - an unknown id that is a whole value and within two edits of a catalog id an information
 *    diagnostic "Did you mean …";
 *  - an active model is not a diagnostic (the hover tells about it).
 * The "Did you mean" search is bounded per pass (issue 40 item 12): answers are cached per id on the
 * catalog index, and a pass computes at most `closenessBudget` distance cells for ids not yet cached;
 * the unknown ids left over are counted in `unchecked` (with where the first is), never silently dropped,
 * and the next pass starts where this one stopped.
 */
import { findAlternative } from '../catalog/alternative';
import { modelLifecycle, removalPhrase, type ModelLifecycle } from '../catalog/deprecation';
import type { Model } from '../gateway/types';
import { idMatcher, type IdMatcher } from './closeness';
import { DEFAULT_ID_SCAN_LIMITS, scanModelIds, type IdToken, type ScanLimits } from './idScanner';

/** The catalog, indexed once per change of the cached catalog. */
export class CatalogIndex {
  readonly byId = new Map<string, Model>();
  readonly ids: ReadonlySet<string>;
  readonly list: readonly string[];

  constructor(readonly models: readonly Model[]) {
    for (const m of models) this.byId.set(m.id, m);
    this.ids = new Set(this.byId.keys());
    this.list = [...this.byId.keys()];
  }

  get(id: string): Model | undefined {
    return this.byId.get(id);
  }

  /** The "Did you mean" matcher of this catalog, with its cache of answers (built on first use). */
  get matcher(): IdMatcher {
    return idMatcher(this.list);
  }
}

/**
 * Distance cells a diagnostics pass may compute for ids it has not seen before: about 50 ms on a busy
 * 2-core machine, about twice what a 140 KB file of 4,000 distinct near-misses needs at 400 models
 * (bench/modelIdDiagnostics.bench.ts), so that file is judged whole in one pass.
 */
export const CLOSENESS_CELL_BUDGET = 2_500_000;

export type FindingKind = 'removed' | 'deprecated' | 'unknown';
export type FindingSeverity = 'error' | 'warning' | 'information';

export interface IdFinding {
  start: number;
  end: number;
  id: string;
  kind: FindingKind;
  severity: FindingSeverity;
  message: string;
  /** The catalog id to replace it with: the named alternative, or the close match. */
  replacement?: string;
  lifecycle?: ModelLifecycle;
}

const SEVERITY: Record<FindingKind, FindingSeverity> = { removed: 'error', deprecated: 'warning', unknown: 'information' };

/** Whether the pass may still look for a close id: cached answers are free, new ones spend the budget. */
type MayCompare = (id: string) => boolean;

function judgeToken(token: IdToken, index: CatalogIndex, now: Date | number, mayCompare: MayCompare): IdFinding | 'unchecked' | undefined {
  const model = index.get(token.text);
  if (!model) {
    if (!token.standalone) return undefined;
    if (!mayCompare(token.text)) return 'unchecked';
    const close = index.matcher.closest(token.text);
    if (!close) return undefined;
    return { start: token.start, end: token.end, id: token.text, kind: 'unknown', severity: SEVERITY.unknown, message: `${token.text} is not in the model catalog. Did you mean ${close}?`, replacement: close };
  }
  const lifecycle = modelLifecycle(model, now);
  if (lifecycle.state === 'active') return undefined;
  const alt = findAlternative(model, index.ids).modelId;
  const altText = alt ? ` Alternative: ${alt}.` : '';
  const kind: FindingKind = lifecycle.state;
  const message =
    kind === 'removed'
      ? `${model.id} (${model.display_name || model.id}) was removed on ${lifecycle.removalDate}: the gateway rejects requests naming it.${altText}`
      : `${model.id} (${model.display_name || model.id}) is deprecated${lifecycle.removalDate ? `: ${removalPhrase(lifecycle)}, on ${lifecycle.removalDate}` : lifecycle.deprecationDate ? ` since ${lifecycle.deprecationDate}; no removal date announced` : ''}.${altText}`;
  const finding: IdFinding = { start: token.start, end: token.end, id: model.id, kind, severity: SEVERITY[kind], message, lifecycle };
  if (alt) finding.replacement = alt;
  return finding;
}

export interface DocumentFindings {
  findings: IdFinding[];
  /** Every token that is a catalog id, for the hover. */
  known: IdToken[];
  truncated?: { reason: 'chars' | 'tokens'; scannedChars: number };
  /** Unknown ids not compared with the catalog because the pass spent its closeness budget: how many, and the offset of the first. */
  unchecked?: { ids: number; firstOffset: number };
}

export function findingsFor(text: string, index: CatalogIndex, now: Date | number, limits: ScanLimits = DEFAULT_ID_SCAN_LIMITS, closenessBudget = CLOSENESS_CELL_BUDGET): DocumentFindings {
  const scan = scanModelIds(text, limits);
  const findings: IdFinding[] = [];
  const known: IdToken[] = [];
  const matcher = index.matcher;
  const spentBefore = matcher.cells;
  const mayCompare: MayCompare = (id) => matcher.has(id) || matcher.cells - spentBefore < closenessBudget;
  let unchecked: DocumentFindings['unchecked'];
  for (const t of scan.tokens) {
    if (index.byId.has(t.text)) known.push(t);
    const f = judgeToken(t, index, now, mayCompare);
    if (f === 'unchecked') {
      if (unchecked) unchecked.ids++;
      else unchecked = { ids: 1, firstOffset: t.start };
    } else if (f) findings.push(f);
  }
  const out: DocumentFindings = { findings, known };
  if (scan.truncated) out.truncated = scan.truncated;
  if (unchecked) out.unchecked = unchecked;
  return out;
}

export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

/** Every occurrence of the id `from` in `text` (as a whole token, as the scanner sees it) replaced by `to`. */
export function replaceIdEdits(text: string, from: string, to: string, limits: ScanLimits = DEFAULT_ID_SCAN_LIMITS): TextEdit[] {
  // Cheap refusal first: most files of a workspace do not name the id at all.
  if (text.indexOf(from) === -1) return [];
  return scanModelIds(text, limits)
    .tokens.filter((t) => t.text === from)
    .map((t) => ({ start: t.start, end: t.end, newText: to }));
}

/** Applies non-overlapping edits (any order) to a text; for tests and previews. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    out += text.slice(at, e.start) + e.newText;
    at = e.end;
  }
  return out + text.slice(at);
}
