/**
 * Chat rendering of model output: the webview kit's markdown + sanitise pipeline
 * (src/webview/kit/markdown.ts: raw HTML off, DOMPurify, images as placeholders, links through the
 * host) plus what only chat needs: highlight.js with a small set of languages (keeps the bundle
 * small) and Copy / Insert / New File buttons on code blocks.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import php from 'highlight.js/lib/languages/php';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';
import { codeBlockLabel } from './codeBlockLabel';
import { runWhenIdle } from '../kit/idle';
import { markdownRenderer, sanitize } from '../kit/markdown';
import { codeLanguage } from './codeLanguage';
import { icon as codicon } from './icons';
import * as l10n from '../../core/l10n';

export { codeLanguage, sanitize };

const LANGUAGES = { bash, css, diff, go, java, javascript, json, php, python, rust, sql, typescript, xml, yaml };
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);
hljs.registerAliases(['sh', 'shell', 'zsh', 'console'], { languageName: 'bash' });
hljs.registerAliases(['js', 'jsx', 'mjs', 'cjs'], { languageName: 'javascript' });
hljs.registerAliases(['ts', 'tsx'], { languageName: 'typescript' });
hljs.registerAliases(['py'], { languageName: 'python' });
hljs.registerAliases(['html', 'svg', 'xhtml'], { languageName: 'xml' });
hljs.registerAliases(['yml'], { languageName: 'yaml' });
hljs.registerAliases(['rs'], { languageName: 'rust' });

function highlight(code: string, lang: string): string {
  if (lang && hljs.getLanguage(lang)) {
    try {
      return hljs.highlight(code, { language: lang, ignoreIllegals: true }).value;
    } catch {
      // fall through to plain
    }
  }
  return '';
}

/** Settled blocks: highlighted once. */
const renderHighlighted = markdownRenderer({ highlight });
/** The block still being written: no highlighting, it is re-rendered every frame. */
const renderPlain = markdownRenderer();

/**
 * Gives each code block a header bar: its language on the left, Copy / Apply / Insert at Cursor / New File as
 * icon buttons on the right (DOM APIs only, never HTML strings; the language is text).
 */
export function decorateCodeBlocks(root: DocumentFragment | HTMLElement): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    if (pre.parentElement?.classList.contains('code-block')) continue;
    const wrap = document.createElement('div');
    wrap.className = 'code-block';
    const bar = document.createElement('div');
    bar.className = 'code-actions';
    const lang = document.createElement('span');
    lang.className = 'code-language';
    const code = pre.querySelector('code');
    const language = (code && codeLanguage(code)) ?? '';
    lang.textContent = language;
    // Read as "Code block, TypeScript" once, not run into the code's first word ("tsconst …").
    lang.setAttribute('aria-hidden', 'true');
    wrap.setAttribute('role', 'group');
    wrap.setAttribute('aria-label', codeBlockLabel(language));
    bar.append(lang);
    for (const [action, label, icon] of [
      ['copyCode', l10n.t('Copy'), 'copy'],
      ['applyCode', l10n.t('Apply (review as a diff)'), 'git-compare'],
      ['insertCode', l10n.t('Insert at Cursor'), 'insert'],
      ['newFile', l10n.t('New File'), 'new-file'],
    ] as const) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'icon-button';
      b.dataset.action = action;
      b.setAttribute('aria-label', label);
      b.title = label;
      b.append(codicon(icon));
      bar.append(b);
    }
    pre.replaceWith(wrap);
    // A tab stop (#30.3): a line wider than a narrow sidebar scrolls sideways, by keyboard too (axe: scrollable-region-focusable).
    pre.tabIndex = 0;
    wrap.append(bar, pre);
  }
}

export function renderMarkdown(text: string, settled: boolean): DocumentFragment {
  const frag = (settled ? renderHighlighted : renderPlain)(text);
  decorateCodeBlocks(frag);
  return frag;
}


/**
 * A short reply that exercises what most replies use: the first render of each of these costs 10-30 ms
 * in a fresh page (V8 compiling markdown-it's and DOMPurify's code on first use, DOMPurify's first
 * parse) and highlighting a language the first time compiles its grammar (15-100 ms). Paid on the
 * first reply, that lands on its first paint and its first code block; paid here, at idle, it does not.
 */
const WARM_SAMPLE = [
  '# Heading\n\nA paragraph with **bold**, *emphasis*, `code`, a [link](https://example.com) and https://example.com.\n\n- item\n- item\n\n1. one\n2. two\n\n> quote\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
  ...['typescript', 'javascript', 'python', 'bash', 'json'].map((lang) => `\`\`\`${lang}\nconst x = f("s", 1); // c\n\`\`\`\n`),
];

/**
 * Renders WARM_SAMPLE into detached fragments while the page is idle, one piece per idle period,
 * through both renderers: the streaming tail's (plain) and the settled blocks' (highlighted). Nothing
 * reaches the page. `stop()`: a reply has started (it warms what it uses itself).
 */
export function warmRenderer(stop: () => boolean): void {
  runWhenIdle([() => renderMarkdown(WARM_SAMPLE[0], false), ...WARM_SAMPLE.map((s) => () => renderMarkdown(s, true))], stop);
}
