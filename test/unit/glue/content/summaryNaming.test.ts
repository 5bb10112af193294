/**
 * [#41.11] The summary tab's name (src/content/summaryResult.ts): the first summary of a file is
 * "Summary of hello.md" (no "(1)"), the next ones of the same file are numbered from 2, another file
 * starts again without a number; each is a Markdown document whatever the source's language.
 */
import { double } from '../../vscodeDouble'; // first: points `vscode` at the double
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { createSummaryResults } from '../../../../src/content/summaryResult';
import { SUMMARY_SCHEME } from '../../../../src/content/summaryScheme';

beforeEach(() => {
  double.reset();
  double.setConfig('aiGateway.content.summaryAction', 'copy', 'global');
});

const record = (path: string) => ({ source: vscode.Uri.file(path), range: { start: 0, end: 5 }, version: 1, wholeDocument: true, original: 'Hello', summary: 'A short summary.' });
/** The name the tab shows: the last path segment of the summary document. */
const shownNames = () => double.shownDocuments.map((d) => decodeURIComponent(d.uri.path.split('/').pop() ?? ''));

test('[#41.11] the first summary of a file has no number; the second of it is (2); another file starts without one', async () => {
  const results = createSummaryResults();
  // As registerContent.ts does at activation: the summary documents' text comes from the results.
  const provider = vscode.workspace.registerTextDocumentContentProvider(SUMMARY_SCHEME, results);
  await results.show(record('/work/posts/hello.md'));
  await results.show(record('/work/posts/hello.md'));
  await results.show(record('/work/src/greeting.ts'));
  assert.deepEqual(shownNames(), ['Summary of hello.md', 'Summary of hello.md (2)', 'Summary of greeting.ts']);
  // Each a Markdown document with its own summary (also the one named after a TypeScript file).
  const docs = double.shownDocuments.map((d) => double.documents.find((doc) => doc.uri.toString() === d.uri.toString()));
  assert.deepEqual(docs.map((d) => d?.languageId), ['markdown', 'markdown', 'markdown']);
  assert.deepEqual(docs.map((d) => d?.getText()), ['A short summary.', 'A short summary.', 'A short summary.']);
  provider.dispose();
  results.dispose();
});
