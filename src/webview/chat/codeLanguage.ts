/** The language named on a rendered code block (`language-xxx` class), if any. Kept apart from markdown.ts so the page can read it without loading the renderer. */
export function codeLanguage(code: Element): string | undefined {
  for (const c of Array.from(code.classList)) if (c.startsWith('language-')) return c.slice('language-'.length);
  return undefined;
}
