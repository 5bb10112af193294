/**
 * Image attachments on the wire: content parts (text, then image_url data: URLs) for a model that
 * takes images; for one that does not, the images are named and not sent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasImages, newConversation, requestMessages, wireRequestMessages, type Conversation } from '../../../src/core/chat/conversation';

function conv(): Conversation {
  const c = newConversation('c1', 'openai/gpt-4.1', 0);
  c.messages.push({
    id: 'u1',
    role: 'user',
    content: 'What is in this picture?',
    status: 'complete',
    createdAt: 0,
    attachments: [
      { id: 'a1', kind: 'image', label: 'img/logo.png', content: 'iVBORw0KGgo=', mime: 'image/png' },
      { id: 'a2', kind: 'selection', label: 'a.ts:1-1', content: 'let x = 1;' },
    ],
  });
  return c;
}

test('a vision model gets the text and each image as a data: URL content part', () => {
  const [m] = wireRequestMessages(conv(), { imageInput: true });
  assert.equal(m?.role, 'user');
  assert.ok(Array.isArray(m?.content));
  const parts = m.content as Array<{ type: string; text?: string; image_url?: { url: string } }>;
  assert.equal(parts.length, 2);
  assert.equal(parts[0]?.type, 'text');
  assert.match(parts[0]?.text ?? '', /Attached selection a\.ts:1-1:[\s\S]*let x = 1;[\s\S]*What is in this picture\?/);
  assert.doesNotMatch(parts[0]?.text ?? '', /iVBOR/, 'the image bytes are not pasted into the text');
  assert.deepEqual(parts[1], { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } });
  assert.equal(hasImages(conv()), true);
});

test('a model without images gets a note instead of the bytes', () => {
  const [m] = wireRequestMessages(conv(), { imageInput: false });
  assert.equal(typeof m?.content, 'string');
  assert.match(m?.content as string, /Image img\/logo\.png not sent/);
  assert.doesNotMatch(m?.content as string, /iVBOR/);
  // The plain request (token estimate) never carries image bytes either.
  assert.doesNotMatch(JSON.stringify(requestMessages(conv())), /iVBOR/);
});
