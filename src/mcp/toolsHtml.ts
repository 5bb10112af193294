/**
 * The tools webview's HTML shell and CSP. No `vscode` import, so the e2e test serves the very same
 * page: nothing but our own script and stylesheet (by nonce and the webview's source), images only as
 * data: URIs from tool results, never remote.
 */
export function toolsCsp(cspSource: string, nonce: string): string {
  return [`default-src 'none'`, `script-src 'nonce-${nonce}'`, `style-src ${cspSource} 'nonce-${nonce}'`, `img-src data:`, `font-src ${cspSource}`].join('; ');
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function toolsHtml(o: { cspSource: string; nonce: string; scriptUri: string; styleUri: string; title: string; preludeScript?: string }): string {
  const prelude = o.preludeScript ? `<script nonce="${o.nonce}">${o.preludeScript}</script>\n` : '';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${toolsCsp(o.cspSource, o.nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeHtml(o.styleUri)}" nonce="${o.nonce}">
<title>${escapeHtml(o.title)}</title>
</head>
<body>
<main id="app" aria-live="polite"><p>Loading…</p></main>
${prelude}<script nonce="${o.nonce}" src="${escapeHtml(o.scriptUri)}"></script>
</body>
</html>`;
}
