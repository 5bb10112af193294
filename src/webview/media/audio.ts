/**
 * The read-aloud player: an <audio> element with controls and no autoplay (the user presses Play),
 * its source a data: URI from the host (the CSP allows media from data: only), and Save Audio.
 */
import '../kit/l10n'; // first: the page's translations before anything builds an element
import { h } from '../kit/dom';
import { installLinkInterceptor } from '../kit/links';
import { isHostToMediaWebview, type AudioHostMessage, type MediaPageHandlers, type MediaWebviewToHost } from '../../protocol/mediaProtocol';
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
let saveButton: HTMLButtonElement | undefined;

function render(m: AudioHostMessage): void {
  const audio = h('audio', { controls: '', preload: 'metadata', id: 'player' });
  audio.autoplay = false;
  if (m.dataUri.startsWith('data:audio/')) audio.src = m.dataUri;
  const save = h('button', { id: 'save', text: l10n.t('Save Audio…') });
  save.addEventListener('click', () => send({ type: 'save' }));
  saveButton = save;
  app.replaceChildren(
    audio,
    h('div', { class: 'actions' }, save),
    status,
    h('p', { class: 'meta', text: [l10n.t('Model: {0}', m.model), m.voice ? l10n.t('voice {0}', m.voice) : '', m.characters === 1 ? l10n.t('1 character') : l10n.t('{0} characters', m.characters.toLocaleString(l10n.displayLocale()))].filter(Boolean).join(' · ') }),
    h('div', { class: 'text', text: m.text }),
  );
}

/** One handler per host message (the compiler refuses a map that misses one); the image is the other page's. */
const handlers: MediaPageHandlers = {
  audio: render,
  image: () => undefined,
  status: (m) => {
    status.textContent = m.text;
    if (saveButton) saveButton.disabled = m.busy;
  },
};

window.addEventListener('message', (e: MessageEvent) => {
  const m: unknown = e.data;
  if (isHostToMediaWebview(m)) dispatch(handlers, m);
});
send({ type: 'ready' });
