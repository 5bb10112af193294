import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGitignore } from '../../../src/core/knowledge/gitignore';
import { gitignoreBase, ignoredByGitignore, lineStarts, looksBinary, positionAt } from '../../../src/core/modelIds/workspaceReplace';
import { replaceIdEdits } from '../../../src/core/modelIds/modelIdFindings';

describe('[#31.4] the workspace replacement', () => {
  test('[#31.4] .gitignore leaves out ignored files and everything in ignored folders; a deeper file re-includes', () => {
    const rules = [parseGitignore('', 'node_modules/\n*.log\nbuild\n'), parseGitignore(gitignoreBase('sub/.gitignore'), '!keep.log\n')];
    assert.equal(ignoredByGitignore(rules, 'node_modules/x/index.js'), true);
    assert.equal(ignoredByGitignore(rules, 'build/out/config.json'), true);
    assert.equal(ignoredByGitignore(rules, 'a.log'), true);
    assert.equal(ignoredByGitignore(rules, 'sub/keep.log'), false);
    assert.equal(ignoredByGitignore(rules, 'src/plugin.php'), false);
    assert.equal(ignoredByGitignore([], 'anything'), false);
  });

  test('[#31.4] edits land on the right line and character, with LF, CRLF and CR line ends', () => {
    for (const eol of ['\n', '\r\n', '\r']) {
      const text = ['<?php', "$m = 'openai/gpt-4o';", '  // openai/gpt-4o'].join(eol);
      const starts = lineStarts(text);
      const edits = replaceIdEdits(text, 'openai/gpt-4o', 'openai/gpt-5.1');
      assert.deepEqual(edits.map((e) => positionAt(starts, e.start)), [{ line: 1, character: 6 }, { line: 2, character: 5 }], JSON.stringify(eol));
    }
  });

  test('[#31.4] a file with a NUL byte early on is binary and never edited', () => {
    assert.equal(looksBinary(new Uint8Array([65, 0, 66])), true);
    assert.equal(looksBinary(new TextEncoder().encode('openai/gpt-4o')), false);
  });
});
