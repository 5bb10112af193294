// The marketplace page is the README without what only people working on the repository need: the
// npm set-up, `npm start`, the benchmark summary and the contributor links. Those parts are wrapped in
// <!-- repo-only --> … <!-- /repo-only --> in README.md; everything else (features, settings, security,
// screenshots) is the product page. vsce rewrites the relative image and link paths against the
// repository's URL (package.json "repository"), so the screenshots resolve from the repository.

export const OPEN = '<!-- repo-only -->';
export const CLOSE = '<!-- /repo-only -->';

/** README text -> marketplace text. Linear: one indexOf scan. Throws on an unbalanced marker. */
export function marketplaceReadme(text) {
  let out = '';
  let at = 0;
  for (;;) {
    const open = text.indexOf(OPEN, at);
    const close = text.indexOf(CLOSE, at);
    if (open === -1) {
      if (close !== -1) throw new Error(`README.md: ${CLOSE} without ${OPEN} before it`);
      out += text.slice(at);
      break;
    }
    if (close === -1 || close < open) throw new Error(`README.md: ${OPEN} without its ${CLOSE}`);
    const nested = text.indexOf(OPEN, open + OPEN.length);
    if (nested !== -1 && nested < close) throw new Error(`README.md: ${OPEN} inside another repo-only block`);
    out += text.slice(at, open);
    at = close + CLOSE.length;
    // The block's own line break goes with it, so no blank lines pile up.
    if (text.startsWith('\r\n', at)) at += 2;
    else if (text[at] === '\n') at += 1;
  }
  return out.replace(/\n{3,}/g, '\n\n');
}
