// esbuild bundles `import './tools.css'` into dist/webview/tools.css (loader in esbuild.mjs).
declare module '*.css';
