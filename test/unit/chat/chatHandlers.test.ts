/**
 * The chat controller reaches every webview message through one typed map (chatDeps.ts ChatHandlers),
 * built from the parts' own maps. The compiler refuses a map that misses a type; this checks what it
 * cannot: that no message type is claimed by two parts (the later spread would silently win).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { WebviewToHost } from '../../../src/protocol/chatProtocol';
import type { ChatView } from '../../../src/core/chat/chatView';
import { AgentRun } from '../../../src/core/chat/agentRun';
import { ConversationPart } from '../../../src/core/chat/conversationPart';
import { CostPart } from '../../../src/core/chat/costPart';
import { ReplyStream } from '../../../src/core/chat/replyStream';
import { SessionChat } from '../../../src/core/chat/sessionChat';
import { SettingsPart } from '../../../src/core/chat/settingsPart';
import { ComposerPart } from '../../../src/core/chat/composerPart';

/** Every webview message type, once: the compiler checks this list against the protocol both ways. */
const PROTOCOL: { [K in WebviewToHost['type']]: true } = {
  ready: true,
  send: true,
  stop: true,
  regenerate: true,
  editLast: true,
  selectModel: true,
  setTemperature: true,
  setSystemPrompt: true,
  newConversation: true,
  openConversation: true,
  renameConversation: true,
  deleteConversation: true,
  exportConversation: true,
  attach: true,
  draft: true,
  setAgent: true,
  agentTools: true,
  toolApproval: true,
  attachMenu: true,
  pickModel: true,
  pickReasoningEffort: true,
  setApiKey: true,
  applyCode: true,
  removeAttachment: true,
  copy: true,
  insertCode: true,
  newFile: true,
  openLink: true,
  errorAction: true,
  rateReply: true,
  loadEarlier: true,
  contextQuery: true,
  addContext: true,
  slashCommand: true,
  implicitContext: true,
  showVersion: true,
  continueReply: true,
};

test('every webview message type is handled by exactly one part of the chat controller', () => {
  // The parts only keep the view until a message comes; a bare object stands in for it here.
  const view = {} as ChatView;
  const cost = new CostPart(view);
  const agent = new AgentRun(view, cost);
  const session = new SessionChat(view);
  const settings = new SettingsPart(view, agent);
  const parts = {
    conversation: new ConversationPart(view, agent),
    stream: new ReplyStream(view, { cost, agent, session, settings }),
    agent,
    session,
    cost,
    settings,
    composer: new ComposerPart(view, { newConversation: async () => {}, pickModel: async () => {} }),
  };
  const owners = new Map<string, string[]>();
  for (const [name, part] of Object.entries(parts)) for (const type of Object.keys(part.handlers)) owners.set(type, [...(owners.get(type) ?? []), name]);
  const shared = [...owners].filter(([, names]) => names.length > 1);
  assert.deepEqual(shared, [], 'a message type handled by two parts');
  assert.deepEqual([...owners.keys()].sort(), Object.keys(PROTOCOL).sort());
});
