/**
 * Tool output and tool descriptions are untrusted: the webview kit's pipeline
 * (src/webview/kit/markdown.ts) renders them, without code highlighting. Links and image
 * placeholders open through the kit's link interceptor, installed once in main.ts.
 */
import { markdownRenderer } from '../kit/markdown';

export const renderMarkdown = markdownRenderer();
