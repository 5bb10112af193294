/**
 * Which document "Insert Transcript" goes into: tracked from activation on (src/media/registerMedia.ts),
 * while the media commands themselves are imported on first use.
 */
import * as vscode from 'vscode';

/** Remembers the last active text document that is not one of our transcripts, for "Insert into". */
export class TranscriptTracker implements vscode.Disposable {
  private last: vscode.Uri | undefined;
  private readonly transcripts = new Map<string, string>();
  private readonly sub: vscode.Disposable;

  constructor() {
    this.track(vscode.window.activeTextEditor);
    this.sub = vscode.window.onDidChangeActiveTextEditor((e) => this.track(e));
  }

  private track(editor: vscode.TextEditor | undefined): void {
    if (!editor) return;
    const key = editor.document.uri.toString();
    const isTranscript = this.transcripts.has(key);
    void vscode.commands.executeCommand('setContext', 'aiGateway.media.hasTranscript', isTranscript && this.last !== undefined);
    if (!isTranscript && (editor.document.uri.scheme === 'file' || editor.document.uri.scheme === 'untitled')) this.last = editor.document.uri;
  }

  get lastDocument(): vscode.Uri | undefined {
    return this.last;
  }

  add(doc: vscode.TextDocument, text: string): void {
    this.transcripts.set(doc.uri.toString(), text);
  }

  isTranscript(uri: vscode.Uri): boolean {
    return this.transcripts.has(uri.toString());
  }

  dispose(): void {
    this.sub.dispose();
  }
}
