/**
 * axe-core (npm) in a webview of the end-to-end tier: the library is evaluated inside the webview's own
 * frame through the browser's debugging protocol, which the page's CSP does not apply to, so the page
 * under test keeps its strict CSP (no script tag is added to it).
 */
import { readFileSync } from 'node:fs';
import type { FrameLocator } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  /** CSS selectors of the first few offending nodes. */
  nodes: string[];
  /** axe's explanation for the first one (for a contrast failure: both colours and the ratio). */
  summary?: string;
}

/** WCAG 2.1 A and AA rules, as the issue asks; "serious" and "critical" are what must be 0. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

export async function axeViolations(frame: FrameLocator): Promise<AxeViolation[]> {
  const handle = await frame.owner().elementHandle();
  const inner = await handle?.contentFrame();
  if (!inner) throw new Error('axe: the webview has no content frame');
  await inner.evaluate(AXE_SOURCE);
  // A function from a string: the test tsconfig has no DOM types.
  const run = new Function('tags', `
    return window.axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: tags } }).then((r) =>
      r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')), summary: v.nodes[0] && v.nodes[0].failureSummary })));
  `) as (tags: string[]) => Promise<AxeViolation[]>;
  return inner.evaluate(run, AXE_TAGS);
}

export const isBlocking = (v: AxeViolation): boolean => v.impact === 'serious' || v.impact === 'critical';
