/**
 * What activation loads: the activation entry and every chunk it imports statically (esbuild's
 * `import` statements between chunks; `import()` chunks are loaded later, on first use). A CommonJS
 * entry (an older build) is one file. Used by bench/run.ts and test/unit/bundle/esmBundle.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Static imports of a built chunk (minified or not): `import{a as b}from"./chunk-X.mjs"`, `import"./x.mjs"`. */
export function staticImports(text: string): string[] {
  return [...text.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w$*{][^"'()]*?from\s*)?["'](\.\/[^"']+)["']/g)].map((m) => m[1]);
}

/** The files the entry loads statically (itself included), relative to its folder, and their bytes. */
export function activationClosure(entry: string): { files: string[]; bytes: number } {
  const dir = path.dirname(entry);
  const seen = new Set<string>();
  const stack = [path.basename(entry)];
  let bytes = 0;
  while (stack.length > 0) {
    const f = stack.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    const text = readFileSync(path.join(dir, f), 'utf8');
    bytes += Buffer.byteLength(text);
    if (f.endsWith('.mjs')) for (const spec of staticImports(text)) stack.push(path.posix.normalize(spec));
  }
  return { files: [...seen], bytes };
}
