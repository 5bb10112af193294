/**
 * The generated-image preview: every image of the request (data: URIs from the host), the prompt and
 * model, and Save to Workspace / Insert into Document / Discard, each handled by the host and acting
 * on the chosen image (the first until another is clicked).
 */
import '../kit/l10n'; // first: the page's translations before anything builds an element
import { h } from '../kit/dom';
import { installLinkInterceptor } from '../kit/links';
import { isHostToMediaWebview, type ImageHostMessage, type MediaPageHandlers, type MediaWebviewToHost } from '../../protocol/mediaProtocol';
import { dispatch } from '../../protocol/declare';
import './media.css';
import * as l10n from '../../core/l10n';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const vscode = acquireVsCodeApi();
// This page shows no links of its own; the kit's interceptor still stops any link before VS Code's
// webview wrapper could open it (every webview installs it), and opens nothing.
installLinkInterceptor(document, () => undefined);
const send = (m: MediaWebviewToHost): void => vscode.postMessage(m);
const app = document.getElementById('app') as HTMLElement;
const status = h('p', { class: 'status', role: 'status' });
let buttons: HTMLButtonElement[] = [];
/** The image Save and Insert act on. */
let chosen = 0;

function render(m: ImageHostMessage): void {
  chosen = 0;
  const count = m.images.length;
  const save = h('button', { id: 'save', text: l10n.t('Save to Workspace…') });
  const insert = h('button', { id: 'insert', text: m.insertLabel });
  const discard = h('button', { id: 'discard', class: 'secondary', text: l10n.t('Discard') });
  save.addEventListener('click', () => send({ type: 'save', index: chosen }));
  insert.addEventListener('click', () => send({ type: 'insert', index: chosen }));
  discard.addEventListener('click', () => send({ type: 'discard' }));
  if (!m.canInsert) insert.disabled = true;
  const revised = h('p', { class: 'meta' });
  const showRevised = (): void => {
    const r = m.images[chosen]?.revisedPrompt;
    revised.textContent = r ? l10n.t('As the model rewrote it: {0}', r) : '';
  };
  // One figure per image; with several, each is a toggle button and the chosen one is marked.
  const picks: HTMLButtonElement[] = [];
  const figures = m.images.map((image, i) => {
    // Only a data: image URI is ever shown; the CSP (img-src data:) enforces the same.
    const src = image.dataUri.startsWith('data:image/') ? image.dataUri : '';
    const label = count > 1 ? l10n.t('Generated image {0} of {1}: {2}', i + 1, count, m.prompt) : l10n.t('Generated image: {0}', m.prompt);
    const img = h('img', { src, alt: label });
    if (count === 1) return h('figure', {}, img);
    const pick = h('button', { class: 'pick', 'aria-pressed': i === 0 ? 'true' : 'false', title: l10n.t('Choose image {0}', i + 1) }, img);
    pick.addEventListener('click', () => {
      chosen = i;
      for (const [j, p] of picks.entries()) p.setAttribute('aria-pressed', j === i ? 'true' : 'false');
      showRevised();
    });
    picks.push(pick);
    return h('figure', {}, pick, h('figcaption', { text: l10n.t('Image {0}', i + 1) }));
  });
  buttons = [save, insert, discard, ...picks];
  showRevised();
  app.replaceChildren(
    h('div', { class: count > 1 ? 'preview grid' : 'preview' }, ...figures),
    count > 1 ? h('p', { class: 'meta', text: l10n.t('{0} images: choose one, then save or insert it.', count) }) : '',
    h('div', { class: 'actions' }, save, insert, discard),
    status,
    h('p', { class: 'meta', text: l10n.t('Prompt: {0}', m.prompt) }),
    revised,
    h('p', { class: 'meta', text: `${l10n.t('Model: {0}', m.model)}${m.size ? ` · ${m.size}` : ''}` }),
  );
  if (!m.canInsert) insert.title = l10n.t('Open a Markdown, HTML, PHP or JSX document to insert the image into it.');
}

/** One handler per host message (the compiler refuses a map that misses one); the audio is the other page's. */
const handlers: MediaPageHandlers = {
  image: render,
  audio: () => undefined,
  status: (m) => {
    status.textContent = m.text;
    for (const b of buttons) if (b.id !== 'insert' || !b.title) b.disabled = m.busy;
  },
};

window.addEventListener('message', (e: MessageEvent) => {
  const m: unknown = e.data;
  if (isHostToMediaWebview(m)) dispatch(handlers, m);
});
send({ type: 'ready' });
