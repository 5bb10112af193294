// esbuild bundles `import './usage.css'` into dist/webview/usage.css (loader in esbuild.mjs).
declare module '*.css';
