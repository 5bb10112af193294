/**
 * The image preview and the audio player pages (src/webview/media/) booted in a DOM (#40.5): only data:
 * media is shown, Save and Insert act on the chosen image, a busy status disables the actions.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { HTMLButtonElement, HTMLElement } from 'happy-dom';
import { bootWebview, type WebviewPage } from './domKit';

let page: WebviewPage | undefined;
afterEach(async () => {
  await page?.close();
  page = undefined;
});

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

test('[#40.5] image preview: several images are toggles; Save and Insert act on the chosen one; a non-data image is not loaded', async () => {
  page = await bootWebview('src/webview/media/image.ts');
  assert.deepEqual(page.posted, [{ type: 'ready' }]);
  await page.receive({ type: 'image', images: [{ dataUri: PNG }, { dataUri: 'https://evil.example/x.png', revisedPrompt: 'a red cat, watercolour' }], prompt: 'a cat', model: 'img/1', size: '1024x1024', canInsert: true, insertLabel: 'Insert into Document' });
  const picks = [...page.document.querySelectorAll<HTMLButtonElement>('button.pick')];
  assert.equal(picks.length, 2);
  assert.deepEqual(picks.map((p) => p.getAttribute('aria-pressed')), ['true', 'false']);
  const imgs = [...page.document.querySelectorAll<HTMLElement>('img')];
  assert.equal(imgs[0].getAttribute('src'), PNG);
  assert.equal(imgs[1].getAttribute('src'), '', 'only data: images are shown');
  assert.equal(imgs[0].getAttribute('alt'), 'Generated image 1 of 2: a cat');
  picks[1].click();
  assert.deepEqual(picks.map((p) => p.getAttribute('aria-pressed')), ['false', 'true']);
  assert.match(page.document.body.textContent ?? '', /As the model rewrote it: a red cat, watercolour/);
  page.byId('save').click();
  page.byId('insert').click();
  page.byId('discard').click();
  assert.deepEqual(page.posted.slice(1), [{ type: 'save', index: 1 }, { type: 'insert', index: 1 }, { type: 'discard' }]);
  await page.receive({ type: 'status', text: 'Saving…', busy: true });
  assert.equal(page.document.querySelector('.status')?.textContent, 'Saving…');
  assert.equal(page.byId<HTMLButtonElement>('save').disabled, true);
  assert.equal(picks[0].disabled, true);
});

test('[#40.5] image preview: Insert is disabled, with the reason, when no document can take the image; it stays so after a status', async () => {
  page = await bootWebview('src/webview/media/image.ts');
  await page.receive({ type: 'image', images: [{ dataUri: PNG }], prompt: 'a dog', model: 'img/1', canInsert: false, insertLabel: 'Insert into Document' });
  const insert = page.byId<HTMLButtonElement>('insert');
  assert.equal(insert.disabled, true);
  assert.match(insert.title, /Open a Markdown, HTML, PHP or JSX document/);
  assert.equal(page.document.querySelector('button.pick'), null, 'one image: no toggles');
  await page.receive({ type: 'status', text: 'Saved.', busy: false });
  assert.equal(insert.disabled, true);
  assert.equal(page.byId<HTMLButtonElement>('save').disabled, false);
  await page.receive({ type: 'image', images: 'not a list', prompt: 'x' });
  assert.ok(page.byId('insert') === insert, 'a malformed message is dropped');
});

test('[#40.5] audio player: plays only data: audio, never by itself; Save; the line says model, voice and characters', async () => {
  page = await bootWebview('src/webview/media/audio.ts');
  assert.deepEqual(page.posted, [{ type: 'ready' }]);
  await page.receive({ type: 'audio', dataUri: 'data:audio/mpeg;base64,AAAA', model: 'tts/1', voice: 'alloy', characters: 1200, text: 'Hello there' });
  const player = page.byId<HTMLElement & { autoplay: boolean; src: string }>('player');
  assert.equal(player.autoplay, false);
  assert.equal(player.getAttribute('src'), 'data:audio/mpeg;base64,AAAA');
  assert.equal(page.document.querySelector('.meta')?.textContent, 'Model: tts/1 · voice alloy · 1,200 characters');
  assert.equal(page.document.querySelector('.text')?.textContent, 'Hello there');
  page.byId('save').click();
  assert.deepEqual(page.postedOf('save'), [{ type: 'save' }]);
  await page.receive({ type: 'status', text: 'Saving…', busy: true });
  assert.equal(page.byId<HTMLButtonElement>('save').disabled, true);
  await page.receive({ type: 'audio', dataUri: 'https://evil.example/a.mp3', model: 'tts/1', characters: 1, text: 'x' });
  assert.equal(page.byId('player').getAttribute('src'), null, 'a non-data URI is not loaded');
  assert.equal(page.document.querySelector('.meta')?.textContent, 'Model: tts/1 · 1 character');
});
