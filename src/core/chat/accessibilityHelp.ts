/**
 * The chat's Accessibility Help (#30.3): every key of the chat, in words, as VS Code's own Alt+F1 help
 * lists its editor's. Shown by `aiGateway.chat.accessibilityHelp` (Alt+F1 in the chat view or a chat
 * tab, and in the Command Palette) in a modal dialog: a screen reader reads it, Escape closes it and
 * the keyboard goes back to where it was.
 */

export interface ChatKeyHelp {
  keys: string;
  what: string;
}

/** The chat's keys; `mac` picks Cmd for Ctrl (the webview's GO_TO_APPROVAL_KEY does the same). */
export function chatKeys(mac: boolean): ChatKeyHelp[] {
  const mod = mac ? 'Cmd' : 'Ctrl';
  return [
    { keys: 'Enter', what: 'Send the message.' },
    { keys: 'Shift+Enter', what: 'Start a new line in the message.' },
    { keys: 'Escape', what: 'Stop the reply that is streaming (anywhere in the chat); while editing, cancel the edit.' },
    { keys: 'Up Arrow (in an empty message box)', what: 'Edit your last message.' },
    { keys: `${mod}+Up Arrow (in the message box)`, what: 'Go to the last message.' },
    { keys: 'Up Arrow, Down Arrow, Home, End (on a message)', what: 'Move between messages; each is read with its author.' },
    { keys: `${mod}+Down Arrow (on a message)`, what: 'Go back to the message box.' },
    { keys: 'Tab (in a message)', what: "Reach the message's actions and each code block's Copy, Apply, Insert at Cursor and New File." },
    { keys: `${mod}+Shift+Enter`, what: 'Go to a tool call waiting for your approval (the card, not its Approve button); press it again to go back to the message box. A waiting approval is announced.' },
    { keys: '# (in the message box)', what: 'Attach context: files, the selection, the workspace. Up and Down choose, Enter or Tab picks, Escape closes the list.' },
    { keys: '/ (at the start of the message box)', what: 'Run a chat command. Up and Down choose, Enter or Tab picks.' },
    { keys: 'Previous version and Next version buttons (‹ ›)', what: 'Switch between the versions of a regenerated reply.' },
    { keys: 'Tab (from the message box)', what: 'Go to the toolbar (model, attach, settings, send); Left and Right move inside it, Home and End go to its ends.' },
    { keys: mac ? 'Cmd+Shift+Alt+Backspace' : 'Ctrl+Shift+Alt+Backspace', what: 'Stop the reply from anywhere in VS Code.' },
    { keys: mac ? 'Cmd+Shift+Alt+K' : 'Ctrl+Shift+Alt+K', what: 'Open the chat and put the keyboard in its message box.' },
    { keys: 'Alt+F1 (in the chat)', what: 'Show this help.' },
  ];
}

/** The help as plain text lines: one key per line, read in order by a screen reader. */
export function chatAccessibilityHelp(mac: boolean): { title: string; detail: string } {
  return {
    title: 'AI Gateway Chat: Accessibility Help',
    detail: [
      'A reply is announced once it is complete, not as it streams in.',
      // The extension host may run on Linux for a user on a Mac (remote, code-server).
      ...(mac ? [] : ['On macOS, press Cmd where Ctrl is written.']),
      '',
      ...chatKeys(mac).map((k) => `${k.keys}: ${k.what}`),
    ].join('\n'),
  };
}
