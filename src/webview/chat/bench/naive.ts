/**
 * The naive baseline for bench/chatRender.bench.ts: the same markdown pipeline (markdown-it,
 * DOMPurify, highlight.js), but the whole message is re-parsed and re-rendered on every chunk, and a
 * history renders every message eagerly. Bench only; never shipped.
 */
import { isHostToWebview } from '../../../protocol/chatProtocol';
import { renderMarkdown } from '../markdown';

const list = document.createElement('div');
list.className = 'messages';
list.id = 'messages';
(document.getElementById('app') ?? document.body).append(list);
let body: HTMLElement | undefined;
let text = '';

window.addEventListener('message', (e: MessageEvent<unknown>) => {
  const m = e.data;
  if (!isHostToWebview(m)) return;
  switch (m.type) {
    case 'streamStart': {
      const article = document.createElement('article');
      article.className = 'message assistant';
      body = document.createElement('div');
      body.className = 'body';
      article.append(body);
      list.append(article);
      text = '';
      return;
    }
    case 'streamChunk':
      text += m.text;
      body?.replaceChildren(renderMarkdown(text, true));
      list.scrollTop = list.scrollHeight;
      return;
    case 'state':
      list.replaceChildren(
        ...m.state.conversation.messages.map((msg) => {
          const article = document.createElement('article');
          article.className = `message ${msg.role}`;
          const b = document.createElement('div');
          b.className = 'body';
          if (msg.role === 'user') b.textContent = msg.content;
          else b.append(renderMarkdown(msg.content, true));
          article.append(b);
          return article;
        }),
      );
      list.scrollTop = list.scrollHeight;
      return;
    default:
      return;
  }
});
