/**
 * A code block's accessible name (#29.13): the code block is a group named "Code block, TypeScript",
 * and its language label is hidden from screen readers, so the language is not run into the code's
 * first word ("tsconst echo…"). Pure: no DOM.
 */
import * as l10n from '../../core/l10n';

const LANGUAGE_NAMES: Record<string, string> = { ts: 'TypeScript', typescript: 'TypeScript', tsx: 'TypeScript React', js: 'JavaScript', javascript: 'JavaScript', jsx: 'JavaScript React', py: 'Python', python: 'Python', sh: 'Shell', bash: 'Bash', shell: 'Shell', json: 'JSON', html: 'HTML', css: 'CSS', md: 'Markdown', markdown: 'Markdown', php: 'PHP', yml: 'YAML', yaml: 'YAML', rs: 'Rust', go: 'Go', sql: 'SQL', xml: 'XML' };

/** A code block's accessible name: "Code block, TypeScript" (the language id as written when unknown). */
export function codeBlockLabel(language: string): string {
  const l = language.trim().slice(0, 40);
  return l ? l10n.t('Code block, {0}', LANGUAGE_NAMES[l.toLowerCase()] ?? l) : l10n.t('Code block');
}

