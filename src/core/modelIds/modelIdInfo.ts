/**
 * The hover and the completion entries of a model id, as plain data and Markdown text (the editor glue
 * wraps them): display name, provider, capabilities, context window and max output, every published
 * rate (src/core/catalog/pricingDisplay.ts), and the deprecation or removal with its date, days left and
 * the alternative (src/core/catalog/details.ts). Catalog text comes from a server: it is escaped before
 * it becomes Markdown.
 */
import { modelDetails } from '../catalog/details';
import { modelLifecycle } from '../catalog/deprecation';
import { rateLines } from '../catalog/pricingDisplay';
import { modelsForCapability } from '../catalog/query';
import type { Capability, Model } from '../gateway/types';
import { isIdChar } from './idScanner';

/** Backslash-escapes Markdown punctuation so catalog text shows as written and links nothing. */
export function escapeMarkdown(s: string): string {
  return s.replace(/[\\`*_{}[\]()#+\-.!<>|~]/g, (c) => `\\${c}`);
}

/** The details lines the hover shows, by their stable key (their labels are translated). */
const HOVER_LINES = new Set(['provider', 'capabilities', 'contextWindow', 'maxOutput']);

/** The hover's Markdown for one catalog model. */
export function hoverMarkdown(model: Model, now: Date | number, catalogIds?: ReadonlySet<string>): string {
  const details = modelDetails(model, now, catalogIds);
  const out: string[] = [`**${escapeMarkdown(details.title)}** \u2014 \`${model.id.replace(/`/g, '')}\``, ''];
  if (details.warning) {
    const icon = details.lifecycle.state === 'removed' ? '$(error)' : '$(warning)';
    out.push(`${icon} ${escapeMarkdown(details.warning)}`, '');
  }
  for (const line of details.lines) {
    if (line.key && HOVER_LINES.has(line.key)) out.push(`${line.label}: ${escapeMarkdown(line.value)}  `);
  }
  const rates = rateLines(model.pricing);
  if (rates.length) {
    out.push('', 'Rates:  ');
    for (const r of rates) out.push(`${r.label}: ${escapeMarkdown(r.text)}  `);
  } else out.push('', model.pricing ? 'No rates listed.' : 'Pricing not published.');
  return out.join('\n');
}

export interface CompletionSpot {
  /** Offsets of the id text to replace: from after the opening quote (or the separator) to the end of the id characters. */
  start: number;
  end: number;
  /** What is typed before the cursor. */
  typed: string;
  /** The capability the surrounding code asks for, when it is clear. */
  capability?: Capability;
}

/** Words near the cursor that say what kind of model the call needs (checked in this order). */
const CAPABILITY_HINTS: ReadonlyArray<[Capability, readonly string[]]> = [
  ['tools', ['tools', 'tool_choice', 'functions', 'function_call']],
  ['image_generation', ['images/generations', 'image_generation']],
  ['speech_generation', ['audio/speech', 'speech_generation', 'text-to-speech']],
  ['transcription', ['audio/transcriptions', 'transcription']],
  ['alt_text', ['alt-text', 'alt_text']],
  ['reasoning', ['reasoning_effort']],
];
const HINT_BEFORE = 400;
const HINT_AFTER = 200;
const MAX_TYPED = 128;

/**
 * Where an id may be completed at `offset`: inside a quoted string (or a bare `key: value` / `KEY=value`),
 * with only id characters between the opening and the cursor. Reads at most a few hundred characters
 * around the cursor, whatever the document's size.
 */
export function completionSpot(text: string, offset: number): CompletionSpot | undefined {
  if (offset < 0 || offset > text.length) return undefined;
  let start = offset;
  while (start > 0 && offset - start < MAX_TYPED && isIdChar(text.charCodeAt(start - 1))) start--;
  if (start > 0 && isIdChar(text.charCodeAt(start - 1))) return undefined;
  const before = start > 0 ? text.charCodeAt(start - 1) : -1;
  const quoted = before === 34 || before === 39 || before === 96;
  if (!quoted) {
    let i = start - 1;
    while (i >= 0 && start - i < 64 && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i--;
    const sep = i >= 0 ? text.charCodeAt(i) : -1;
    // A bare value only after a key that names a model (`model: `, `MODEL=`, `default_model: `).
    if (sep !== 58 && sep !== 61) return undefined;
    let k = i;
    while (k > 0 && i - k < 64 && /[A-Za-z0-9_.-]/.test(text[k - 1])) k--;
    if (!/model/i.test(text.slice(k, i))) return undefined;
  }
  let end = offset;
  while (end < text.length && end - offset < MAX_TYPED && isIdChar(text.charCodeAt(end))) end++;
  const spot: CompletionSpot = { start, end, typed: text.slice(start, offset) };
  const near = text.slice(Math.max(0, start - HINT_BEFORE), Math.min(text.length, end + HINT_AFTER)).toLowerCase();
  for (const [capability, words] of CAPABILITY_HINTS) {
    if (words.some((w) => near.includes(w))) {
      spot.capability = capability;
      break;
    }
  }
  return spot;
}

export interface IdCompletion {
  id: string;
  label: string;
  /** One line: display name and the input/output rates. */
  detail: string;
  documentation: string;
  deprecated: boolean;
  sortText: string;
}

/**
 * The ids to offer: models with `capability` when given, otherwise every model still served; removed
 * models never (G-CAT-11), deprecated ones after the active ones and marked (G-CAT-10).
 */
export function idCompletions(models: readonly Model[], now: Date | number, capability?: Capability, catalogIds?: ReadonlySet<string>): IdCompletion[] {
  const chosen = capability ? modelsForCapability(models, capability, now) : servedModels(models, now);
  return chosen.map((m, i) => {
    const rates = rateLines(m.pricing);
    const io = rates.filter((r) => r.key === 'input_per_million' || r.key === 'output_per_million');
    const shown = (io.length ? io : rates.slice(0, 2)).map((r) => `${r.label.toLowerCase()} ${r.text}`).join(', ');
    const deprecated = modelLifecycle(m, now).state === 'deprecated';
    return {
      id: m.id,
      label: m.id,
      detail: `${m.display_name || m.id}${deprecated ? ' (deprecated)' : ''}${shown ? ` \u2014 ${shown}` : ''}`,
      documentation: hoverMarkdown(m, now, catalogIds),
      deprecated,
      sortText: String(i).padStart(5, '0'),
    };
  });
}

function servedModels(models: readonly Model[], now: Date | number): Model[] {
  const active: Model[] = [];
  const deprecated: Model[] = [];
  for (const m of models) {
    const state = modelLifecycle(m, now).state;
    if (state === 'active') active.push(m);
    else if (state === 'deprecated') deprecated.push(m);
  }
  return [...active.sort((a, b) => a.id.localeCompare(b.id)), ...deprecated.sort((a, b) => a.id.localeCompare(b.id))];
}
