import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BlockSplitter, splitBlocks } from '../../../src/webview/chat/blockSplitter';

const SAMPLE = [
  '# Title',
  'Intro paragraph line one',
  'line two.',
  '',
  '- item one',
  '- item two',
  '',
  '  continuation of item two',
  '',
  '```ts',
  'const a = 1;',
  '',
  'const b = 2;',
  '```',
  'After the fence.',
  '',
  'Final paragraph.',
  '',
].join('\n');

test('settled blocks concatenate back to exactly the input', () => {
  assert.equal(splitBlocks(SAMPLE).join(''), SAMPLE);
});

test('a blank line inside a code fence does not split the fence', () => {
  const blocks = splitBlocks(SAMPLE);
  const fence = blocks.find((b) => b.startsWith('```ts'));
  assert.ok(fence);
  assert.ok(fence.includes('const a = 1;') && fence.includes('const b = 2;') && fence.trimEnd().endsWith('```'));
});

test('an indented continuation stays with its list', () => {
  const list = splitBlocks(SAMPLE).find((b) => b.startsWith('- item one'));
  assert.ok(list?.includes('continuation of item two'));
});

test('streaming in arbitrary chunks gives the same blocks as the whole text', () => {
  const expected = splitBlocks(SAMPLE);
  for (const size of [1, 2, 3, 7, 16, 50]) {
    const s = new BlockSplitter();
    const got: string[] = [];
    for (let i = 0; i < SAMPLE.length; i += size) got.push(...s.push(SAMPLE.slice(i, i + size)));
    got.push(...s.finish());
    assert.deepEqual(got, expected, `chunk size ${size}`);
  }
});

test('the tail is the block still being written, and settled text is never re-emitted', () => {
  const s = new BlockSplitter();
  assert.deepEqual(s.push('First para.\n\nSecond'), []);
  assert.equal(s.tail, 'First para.\n\nSecond');
  assert.deepEqual(s.push(' para.\n\nThird'), ['First para.\n\n']);
  assert.equal(s.tail, 'Second para.\n\nThird');
  assert.deepEqual(s.push('\n'), ['Second para.\n\n']);
  assert.deepEqual(s.finish(), ['Third\n']);
  assert.equal(s.tail, '');
});

test('an unclosed fence keeps everything after it in the tail', () => {
  const s = new BlockSplitter();
  const settled = s.push('Text\n\n```\ncode\n\nmore code\n');
  assert.deepEqual(settled, ['Text\n\n']);
  assert.equal(s.tail, '```\ncode\n\nmore code\n');
});
