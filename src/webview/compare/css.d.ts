// esbuild bundles `import './compare.css'` into dist/webview/compare.css (loader in esbuild.mjs).
declare module '*.css';
