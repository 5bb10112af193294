import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { codeBlockTarget, fitReplacement, unwrapFence } from '../../../src/core/diff/replacement';

describe('[#29.5] fitting a replacement into a document', () => {
  test('a code block names a file with lang:path or a bare path; a language alone names none', () => {
    assert.deepEqual(codeBlockTarget('ts:src/a.ts'), { language: 'ts', path: 'src/a.ts' });
    assert.deepEqual(codeBlockTarget('posts/hello.md'), { language: 'md', path: 'posts/hello.md' });
    assert.deepEqual(codeBlockTarget('typescript'), { language: 'typescript' });
    assert.deepEqual(codeBlockTarget(undefined), {});
    assert.deepEqual(codeBlockTarget('md:https://evil.example/x.md'), { language: 'md' });
  });

  test('CRLF documents get CRLF, and the final newline follows the original', () => {
    assert.equal(fitReplacement('old line\r\n', 'new\nlines\n', '\r\n'), 'new\r\nlines\r\n');
    assert.equal(fitReplacement('no newline at end', 'rewritten\n\n', '\n'), 'rewritten');
    assert.equal(fitReplacement('ends\n', 'rewritten', '\n'), 'rewritten\n');
  });

  test("a fence the model put around its whole answer is removed, unless the original was fenced", () => {
    assert.equal(unwrapFence('```markdown\nShorter text.\n```\n', 'Long text.'), 'Shorter text.');
    assert.equal(unwrapFence('```js\nx()\n```', '```js\nx();\n```'), '```js\nx()\n```');
    assert.equal(unwrapFence('Plain answer', 'Original'), 'Plain answer');
  });
});
