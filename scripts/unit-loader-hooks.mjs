// ESM loader hooks of the unit tier (scripts/unit-loader.mjs): a relative or file: specifier naming a
// TypeScript file, written without extension, with `.js` for `.ts`, or as a folder with index.ts, resolves
// to that file; a .ts file is loaded by the CommonJS loader (format commonjs, no source), where tsx/cjs
// compiles it. Everything else goes to Node's own resolution unchanged.
import { statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TS = /\.ts$/;
const isFile = (p) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

export async function resolve(specifier, context, next) {
  const relative = specifier.startsWith('./') || specifier.startsWith('../') || specifier.startsWith('/') || specifier.startsWith('file:');
  if (relative && (specifier.startsWith('file:') || context.parentURL?.startsWith('file:'))) {
    const path = fileURLToPath(specifier.startsWith('file:') ? specifier : new URL(specifier, context.parentURL));
    if (isFile(path)) {
      if (TS.test(path)) return { url: pathToFileURL(path).href, format: 'commonjs', shortCircuit: true };
    } else {
      for (const candidate of [`${path}.ts`, path.replace(/\.js$/, '.ts'), `${path}/index.ts`]) {
        if (candidate !== path && isFile(candidate)) return { url: pathToFileURL(candidate).href, format: 'commonjs', shortCircuit: true };
      }
    }
  }
  return next(specifier, context);
}

export async function load(url, context, next) {
  if (url.startsWith('file:') && TS.test(url)) return { format: 'commonjs', shortCircuit: true };
  return next(url, context);
}
