/**
 * The generated-image preview: the image (a data: URI from the host), the prompt and model, and
 * Save to Workspace / Insert into Document / Discard, each handled by the host.
 */
import { h } from '../kit/dom';
import { installLinkInterceptor } from '../kit/links';
import { isHostToMediaWebview, type ImageHostMessage, type MediaWebviewToHost } from './protocol';
import './media.css';

declare function acquireVsCodeApi(): { postMessage(message: unknown): void };
const vscode = acquireVsCodeApi();
// This page shows no links of its own; the kit's interceptor still stops any link before VS Code's
// webview wrapper could open it (every webview installs it), and opens nothing.
installLinkInterceptor(document, () => undefined);
const send = (m: MediaWebviewToHost): void => vscode.postMessage(m);
const app = document.getElementById('app') as HTMLElement;
const status = h('p', { class: 'status', role: 'status' });
let buttons: HTMLButtonElement[] = [];

function render(m: ImageHostMessage): void {
  // Only a data: image URI is ever shown; the CSP (img-src data:) enforces the same.
  const src = m.dataUri.startsWith('data:image/') ? m.dataUri : '';
  const save = h('button', { id: 'save', text: 'Save to Workspace…' });
  const insert = h('button', { id: 'insert', text: m.insertLabel });
  const discard = h('button', { id: 'discard', class: 'secondary', text: 'Discard' });
  save.addEventListener('click', () => send({ type: 'save' }));
  insert.addEventListener('click', () => send({ type: 'insert' }));
  discard.addEventListener('click', () => send({ type: 'discard' }));
  if (!m.canInsert) insert.disabled = true;
  buttons = [save, insert, discard];
  const revised = m.revisedPrompt ? h('p', { class: 'meta', text: `As the model rewrote it: ${m.revisedPrompt}` }) : '';
  app.replaceChildren(
    h('div', { class: 'preview' }, h('img', { src, alt: `Generated image: ${m.prompt}` })),
    h('div', { class: 'actions' }, save, insert, discard),
    status,
    h('p', { class: 'meta', text: `Prompt: ${m.prompt}` }),
    revised,
    h('p', { class: 'meta', text: `Model: ${m.model}${m.size ? ` · ${m.size}` : ''}` }),
  );
  if (!m.canInsert) insert.title = 'Open a Markdown, HTML, PHP or JSX document to insert the image into it.';
}

window.addEventListener('message', (e: MessageEvent) => {
  const m: unknown = e.data;
  if (!isHostToMediaWebview(m)) return;
  if (m.type === 'image') render(m);
  else if (m.type === 'status') {
    status.textContent = m.text;
    for (const b of buttons) if (b.id !== 'insert' || !b.title) b.disabled = m.busy;
  }
});
send({ type: 'ready' });
