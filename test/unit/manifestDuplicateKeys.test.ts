/**
 * package.json (and its translations) hold no duplicate key at any depth. JSON.parse keeps the last of
 * two equal keys without a word, so a second "keybindings" block silently replaced the first. The scan
 * is one linear pass over the text: a stack of the key sets of the open objects.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface DuplicateKey {
  /** The path of the object holding it, e.g. "contributes". */
  path: string;
  key: string;
  line: number;
}

/** Every key that appears twice in one object of the JSON text `text`; throws on text that is not JSON-like. */
export function findDuplicateKeys(text: string): DuplicateKey[] {
  const found: DuplicateKey[] = [];
  // One frame per open object or array: its keys (objects only) and the key it sits under.
  const stack: Array<{ keys: Set<string> | undefined; name: string; expectKey: boolean; last: string }> = [];
  let line = 1;
  let i = 0;
  const readString = (): string => {
    // i is at the opening quote; returns the decoded string and leaves i after the closing quote.
    let out = '';
    i++;
    while (i < text.length) {
      const c = text[i];
      if (c === '"') {
        i++;
        return out;
      }
      if (c === '\\') {
        const e = text[i + 1];
        if (e === 'u') {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else {
          out += ({ n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' } as Record<string, string>)[e] ?? e;
          i += 2;
        }
        continue;
      }
      if (c === '\n') throw new Error(`unterminated string on line ${line}`);
      out += c;
      i++;
    }
    throw new Error('unterminated string at the end');
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '{' || c === '[') {
      const parent = stack[stack.length - 1];
      const name = parent ? `${parent.name}${parent.name ? '.' : ''}${parent.keys ? parent.last : '[]'}` : '';
      stack.push({ keys: c === '{' ? new Set() : undefined, name, expectKey: c === '{', last: '' });
      i++;
    } else if (c === '}' || c === ']') {
      if (!stack.pop()) throw new Error(`unbalanced ${c} on line ${line}`);
      i++;
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.keys) top.expectKey = true;
      i++;
    } else if (c === '"') {
      const top = stack[stack.length - 1];
      const startLine = line;
      const s = readString();
      if (top?.keys && top.expectKey) {
        if (top.keys.has(s)) found.push({ path: top.name, key: s, line: startLine });
        top.keys.add(s);
        top.last = s;
        top.expectKey = false;
      }
    } else {
      i++;
    }
  }
  if (stack.length) throw new Error('unclosed object or array at the end');
  return found;
}

describe('manifest: no duplicate keys', () => {
  const files = ['package.json', 'package.nls.json', 'package.nls.es.json', 'package.nls.de.json'].filter((f) => f === 'package.json' || existsSync(join(ROOT, f)));
  for (const file of files) {
    test(`${file} has no key twice in one object (JSON.parse would keep only the last)`, () => {
      assert.deepEqual(findDuplicateKeys(readFileSync(join(ROOT, file), 'utf8')), []);
    });
  }

  test('the scan finds a duplicate at any depth, and only real duplicates', () => {
    const crafted = [
      '{',
      '  "name": "x",',
      '  "contributes": {',
      '    "keybindings": [{ "key": "a", "command": "c" }, { "key": "b", "command": "c" }],',
      '    "menus": { "view/title": [{ "command": "x", "when": "a \\" command" }] },',
      '    "keybindings": []',
      '  },',
      '  "nested": { "a": { "b": { "k": 1, "k": 2 } } },',
      '  "\\u006eame": "escaped duplicate of name"',
      '}',
    ].join('\n');
    assert.deepEqual(findDuplicateKeys(crafted), [
      { path: 'contributes', key: 'keybindings', line: 6 },
      { path: 'nested.a.b', key: 'k', line: 8 },
      { path: '', key: 'name', line: 9 },
    ]);
    // Equal keys in sibling objects, in array elements and equal values are not duplicates.
    assert.deepEqual(findDuplicateKeys('{"a":{"k":"k"},"b":{"k":"k"},"c":[{"k":1},{"k":2}]}'), []);
  });
});
