/**
 * The chat's wiring, loaded on first use (an import() chunk of its own): the
 * activation part (src/chat/registerChat.ts) registers the view provider, the panel serializer and the
 * chat commands as stubs, and calls into this module through import() when a
 * chat view or tab resolves or a chat command runs, so the controller, the history store, the agent
 * loop and the editor host stay out of dist/extension.js.
 *
 * Each webview gets its own ChatController (src/core/chat); all share one HistoryStore (one per
 * ChatWiring, and activation creates one), so every view sees the same history, and one
 * LiveConversations over it, so views showing the same conversation (the sidebar and a tab) share it
 * live instead of overwriting each other's turns. The API key stays in
 * the extension host: the webview only ever gets protocol messages (src/protocol/chatProtocol.ts), none
 * of which carries a credential.
 */
import { CONVERSATION_CAPABILITIES } from '../core/gateway/chatRoute';
import * as vscode from 'vscode';
import type { CommandId } from '../commandIds';
import type { CommandRegistrar } from '../platform/commands';
import { chatAccessibilityHelp } from '../core/chat/accessibilityHelp';
import { ChatController, type ChatModelSource } from '../core/chat/chatController';
import { HistoryStore } from '../core/chat/historyStore';
import { chatModelOptions } from '../core/chat/modelOptions';
import { LiveConversations } from '../core/chat/liveConversations';
import { DisposableStore } from '../core/disposables';
import { PromptCostEstimator } from '../core/spend/promptCost';
import { isWebviewToHost, type HostToWebview } from '../protocol/chatProtocol';
import type { Services } from '../services';
import type { ChatServices } from './registerChat';
import { counterFor } from '../platform/costConfirm';
import { PanelRegistry } from '../webviewKit/panels';
import { ChatEditorActions } from './editorHost';
import { ChatAgentTools } from './agentHost';
import { showHistory } from './historyPick';
import { CHAT_PANEL_VIEW_TYPE, CHAT_RETAINED, CHAT_VIEW_ID } from './chatIds';
import type { ChatPage } from './chatPage';
import { startChatPage } from './webviewHtml';

const LAST_MODEL_KEY = 'aiGateway.chat.lastModel';
/** The pause in a visible document's edits after which the implicit file chip's size is re-sent. */
const IMPLICIT_SIZE_PAUSE_MS = 300;
/** How long a command waits for the sidebar view it asked the workbench to show. */
const REVEAL_WAIT_MS = 10_000;

interface ChatDeps {
  services: ChatServices;
  store: HistoryStore;
  live: LiveConversations;
  actions: ChatEditorActions;
  agent: ChatAgentTools;
}

/**
 * The context key `aiGateway.chat.busy`: some chat (view or tab) is waiting for a reply. It enables
 * Stop Chat Reply in the palette and its key binding; updated when a stream starts or ends.
 */
const busyContext = {
  controllers: new Set<ChatController>(),
  last: false,
  update(): void {
    // After the controller has applied the message it posts (stream state changes on the same turn).
    queueMicrotask(() => {
      const busy = [...this.controllers].some((c) => c.busy);
      if (busy === this.last) return;
      this.last = busy;
      void vscode.commands.executeCommand('setContext', 'aiGateway.chat.busy', busy);
    });
  },
};

/** Wires one chat page (view or panel) to a fresh controller; disposing it tears both down. */
function attach(page: ChatPage, deps: ChatDeps, onTitle?: (title: string) => void, takeFocus?: () => void): { controller: ChatController; disposable: vscode.Disposable } {
  const { services } = deps;
  const { webview } = page;
  const bag = new DisposableStore();
  const models: ChatModelSource = {
    chatModels: () => services.catalog.modelsFor(CONVERSATION_CAPABILITIES),
    getModel: (id) => services.catalog.getModel(id),
    toolModels: () => services.catalog.modelsFor('tools'),
    visionModels: () => services.catalog.modelsFor('vision'),
    onDidChange: (listener) => services.catalog.onDidChange(() => listener(undefined)),
  };
  // Cost before sending, for this view's input: one count_tokens per pause in typing, cached.
  const counter = counterFor(services);
  const promptCost = new PromptCostEstimator({
    count: (model, text, signal) => counter.countWithSource(model, text, signal, 1),
    model: (id) => services.catalog.getModel(id),
  });
  bag.add({ dispose: () => promptCost.cancel() });
  const controller = bag.add(
    new ChatController({
      getClient: () => services.getClient(),
      models,
      store: deps.store,
      live: deps.live,
      prefs: {
        lastModelId: () => services.context.globalState.get<string>(LAST_MODEL_KEY) || services.config.defaultChatModel.get() || undefined,
        setLastModelId: async (id) => {
          await services.context.globalState.update(LAST_MODEL_KEY, id);
        },
      },
      host: deps.actions,
      // The key's name only, never its secret: the empty state names it or offers Add API Key.
      apiKey: () => {
        const st = services.keys.status;
        return st.kind === 'none' ? { kind: 'none' } : { kind: st.kind, name: st.key.name };
      },
      // A hidden or closed webview drops the message; the next `ready` re-sends the full state.
      post: (message: HostToWebview) => {
        void webview.postMessage(message).then(undefined, () => undefined);
        if (message.type.startsWith('stream') || message.type === 'state') busyContext.update();
      },
      log: services.log,
      // Spend: the daily/monthly budget guard before each request, and every priced reply in the
      // local spend ledger that the usage dashboard and the status bar read.
      allowSend: () => services.budget.allowSend(vscode.l10n.t('Chat')),
      onPriced: (reply) => services.spend.recordSpend({ model: reply.model, operation: 'chat-panel', usage: reply.usage, pricing: reply.pricing, requestId: reply.requestId, ...(reply.estimated ? { estimated: reply.estimated } : {}) }),
      agent: deps.agent,
      promptCost,
      ...(onTitle ? { onTitle } : {}),
      ...(takeFocus ? { takeFocus } : {}),
    }),
  );
  bag.add(
    page.listen((m: unknown) => {
      if (isWebviewToHost(m)) void controller.handle(m);
      else services.log.warn('Chat: ignored a malformed message from the webview.');
    }),
  );
  busyContext.controllers.add(controller);
  bag.add({ dispose: () => (busyContext.controllers.delete(controller), busyContext.update()) });
  bag.add(services.keys.onDidChange(() => controller.refresh()));
  // The implicit attachment is the active editor's file: it follows the editor the user moves to, and
  // its size follows the file's text (typing, Undo), re-sent once typing pauses, not per keystroke.
  bag.add(vscode.window.onDidChangeActiveTextEditor((e) => e && controller.refreshState()));
  let sizeTimer: ReturnType<typeof setTimeout> | undefined;
  bag.add({ dispose: () => clearTimeout(sizeTimer) });
  bag.add(
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (!vscode.window.visibleTextEditors.some((ed) => ed.document === e.document)) return;
      clearTimeout(sizeTimer);
      sizeTimer = setTimeout(() => controller.refreshState(), IMPLICIT_SIZE_PAUSE_MS);
    }),
  );
  // The catalog is fetched on first use; the picker fills in when it arrives (catalog onDidChange).
  void services.catalog.ensureLoaded();
  return { controller, disposable: bag };
}

/** The sidebar chat view (registered in registerChat.ts, which starts its page). */
class ChatViewProvider implements vscode.Disposable {
  private current: { view: vscode.WebviewView; controller: ChatController; disposable: vscode.Disposable } | undefined;
  /** A command asked for the input before the view was resolved. */
  private focusPending = false;

  constructor(private readonly deps: ChatDeps) {}

  resolveWebviewView(view: vscode.WebviewView, page: ChatPage): void {
    this.current?.disposable.dispose();
    // The view's title stays "Chat"; the conversation's title is its description, next to it.
    const { controller, disposable } = attach(
      page,
      this.deps,
      (title) => (view.description = title),
      // The view's focus command, as Open Chat uses (view.show(false) left the keyboard in the text editor).
      () => void vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`),
    );
    const entry = { view, controller, disposable };
    this.current = entry;
    this.resolved.fire();
    if (this.focusPending) {
      this.focusPending = false;
      controller.focusInput();
    }
    view.onDidDispose(() => {
      entry.disposable.dispose();
      if (this.current === entry) this.current = undefined;
    });
  }

  get controller(): ChatController | undefined {
    return this.current?.controller;
  }

  /** Whether the view is on screen (a resolved view is kept, hidden, when the side bar shows another). */
  get visible(): boolean {
    return this.current?.view.visible ?? false;
  }

  /** Shows the resolved view (its webview reloads when it was hidden) without moving the keyboard (see reveal). */
  showUnfocused(): void {
    this.current?.view.show(true);
  }

  private readonly resolved = new vscode.EventEmitter<void>();

  /**
   * The view's controller, showing (resolving) the view first when it is not yet. `preserveFocus`: the
   * keyboard stays where it is, for a command that shows a QuickPick next. Focusing the view focuses its
   * webview, and one still loading is focused again once its frame is ready (the workbench checks 50 ms
   * after the focus, then queues a message for the frame): a QuickPick opened meanwhile loses the
   * keyboard and closes.
   *
   * The view's focus command runs every time, also when the view is already resolved: a resolved view
   * may be hidden (the side bar shows the Explorer, its container is in the panel and closed) or
   * collapsed, and only the workbench's command brings it back wherever the user moved it.
   */
  async reveal(options: { preserveFocus?: boolean } = {}): Promise<ChatController | undefined> {
    const focusArgs = options.preserveFocus ? [{ preserveFocus: true }] : [];
    if (this.current) {
      const { controller } = this.current;
      await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`, ...focusArgs);
      // The command may have re-created a disposed view: the newest controller then.
      return this.current?.controller ?? controller;
    }
    // The view resolves after the focus command returns (its page first, the controller a turn later).
    let done = (): void => undefined;
    const next = new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), REVEAL_WAIT_MS);
      const sub = this.resolved.event(() => done());
      done = () => (clearTimeout(timer), sub.dispose(), resolve());
    });
    // A view's focus command takes the workbench's focus options: { preserveFocus } opens it unfocused.
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`, ...focusArgs);
    if (!this.controller) await next;
    done();
    return this.controller;
  }

  /** Focuses the view's input (now, or once the view is resolved and loaded). Only for user commands. */
  focusInput(): void {
    if (this.current) this.current.controller.focusInput();
    else this.focusPending = true;
  }

  dispose(): void {
    this.current?.disposable.dispose();
    this.current = undefined;
    this.resolved.dispose();
  }
}

/** Chat tabs are not unique per key (several chats may be open), so each panel is its own key. */
type ChatPanels = PanelRegistry<vscode.WebviewPanel, vscode.WebviewPanel>;
/** Each open chat tab's controller, and the tab most recently active (the target of the tab title actions). */
const panelControllers = new Map<vscode.WebviewPanel, ChatController>();
let lastActivePanel: vscode.WebviewPanel | undefined;

function activePanel(): { panel: vscode.WebviewPanel; controller: ChatController } | undefined {
  const panel = [...panelControllers.keys()].find((p) => p.active) ?? lastActivePanel;
  const controller = panel && panelControllers.get(panel);
  return panel && controller ? { panel, controller } : undefined;
}

/** The chat tab "Open in Chat" reuses: the one active or used last, else any open one; never a busy one. */
function reusablePanel(): { panel: vscode.WebviewPanel; controller: ChatController } | undefined {
  const order = [activePanel()?.panel, ...[...panelControllers.keys()].reverse()];
  for (const panel of order) {
    const controller = panel && panelControllers.get(panel);
    if (panel && controller && !controller.busy) return { panel, controller };
  }
  return undefined;
}

function openPanel(deps: ChatDeps, panels: ChatPanels): ChatController {
  // Kept while hidden, like the sidebar view: see CHAT_RETAINED (chatIds.ts). The webview's own options
  // are set with its page (startChatPage).
  const panel = vscode.window.createWebviewPanel(CHAT_PANEL_VIEW_TYPE, vscode.l10n.t('AI Gateway Chat'), vscode.ViewColumn.Beside, { retainContextWhenHidden: CHAT_RETAINED });
  const controller = adoptPanel(panel, startChatPage(panel.webview, deps.services.context.extensionUri), deps, panels);
  // The user asked for this chat: its input gets the keyboard once the webview has loaded.
  controller.focusInput();
  return controller;
}

/** Wires a new or restored chat tab. A restored tab reopens the most recent conversation. */
function adoptPanel(panel: vscode.WebviewPanel, page: ChatPage, deps: ChatDeps, panels: ChatPanels): ChatController {
  panel.iconPath = vscode.Uri.joinPath(deps.services.context.extensionUri, 'media', 'activity.svg');
  // Each tab carries its conversation's title (agent chats too), following renames and new chats.
  const { controller, disposable } = attach(
    page,
    deps,
    (title) => (panel.title = title),
    () => panel.reveal(undefined, false),
  );
  const forget = panels.add(panel, panel);
  panelControllers.set(panel, controller);
  if (panel.active) lastActivePanel = panel;
  let wasVisible = panel.visible;
  panel.onDidChangeViewState(() => {
    if (panel.active) lastActivePanel = panel;
    // Brought back to the front by the user (tab click, Ctrl+Tab), a tab gets the input focused as a
    // freshly opened chat does; a tab that only becomes visible (another group) does not take the keyboard.
    if (panel.visible && !wasVisible && panel.active) controller.focusInput();
    wasVisible = panel.visible;
  });
  panel.onDidDispose(() => {
    disposable.dispose();
    forget();
    panelControllers.delete(panel);
    if (lastActivePanel === panel) lastActivePanel = undefined;
  });
  return controller;
}

/** The same grouped picker as the chat's model button (by provider, with badges, context, rates, dates). */
async function pickChatModel(services: Pick<Services, 'catalog'>, actions: ChatEditorActions): Promise<string | undefined> {
  await services.catalog.ensureLoaded();
  return actions.pickModel(chatModelOptions(services.catalog.modelsFor(CONVERSATION_CAPABILITIES), Date.now()), undefined);
}

/** What the activation part drives; one per activation. */
export interface ChatWiring extends vscode.Disposable {
  /** The sidebar view resolved (shown for the first time, or again after it was disposed); its page is already started. */
  resolveView(view: vscode.WebviewView, page: ChatPage): void;
  /** A chat tab restored after a window reload. */
  restorePanel(panel: vscode.WebviewPanel, page: ChatPage): void;
  /** The real handlers of the chat commands (registerFeatureCommands hands in its registrar). */
  registerChatCommands(registerCommand: CommandRegistrar): vscode.Disposable;
}

/**
 * The chat's shared pieces: the one history store (and its watch for other windows' writes), the
 * editor actions, the agent tools, the sidebar provider and the open tabs. `lastEditor` is the text
 * editor that was active last, tracked from activation on, so "Insert Code" targets the same editor
 * whether or not this module was loaded before the user moved to the chat.
 */
export function createChatWiring(services: ChatServices, lastEditor: () => vscode.TextEditor | undefined): ChatWiring {
  const bag = new DisposableStore();
  const historyDir = vscode.Uri.joinPath(services.context.globalStorageUri, 'chat');
  const store = bag.add(new HistoryStore(historyDir.fsPath, undefined, services.log));
  // Other windows of this profile write the same history: their saves, renames and deletes reach this
  // window's list without a rescan (own writes cost one stat: the store knows what it wrote).
  const watcher = bag.add(vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(historyDir, '*.json')));
  const onFile = (uri: vscode.Uri) => {
    const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
    if (name.endsWith('.json')) void store.refreshFile(name.slice(0, -'.json'.length)).catch(() => undefined);
  };
  bag.add(watcher.onDidCreate(onFile));
  bag.add(watcher.onDidChange(onFile));
  bag.add(watcher.onDidDelete(onFile));
  const actions = bag.add(new ChatEditorActions(lastEditor));
  const live = bag.add(new LiveConversations(store, { log: services.log }));
  const deps: ChatDeps = { services, store, live, actions, agent: bag.add(new ChatAgentTools(services)) };
  const provider = bag.add(new ChatViewProvider(deps));
  const panels: ChatPanels = new PanelRegistry();
  bag.add({ dispose: () => panels.disposeAll() });
  return {
    resolveView: (view, page) => provider.resolveWebviewView(view, page),
    restorePanel: (panel, page) => void adoptPanel(panel, page, deps, panels),
    registerChatCommands: (registerCommand) => registerChatCommands(deps, provider, panels, registerCommand),
    dispose: () => bag.dispose(),
  };
}

function registerChatCommands(deps: ChatDeps, provider: ChatViewProvider, panels: ChatPanels, registerCommand: CommandRegistrar): vscode.Disposable {
  const { services } = deps;
  const bag = new DisposableStore();
  bag.add(registerCommand('aiGateway.chat.openInEditor', () => void openPanel(deps, panels)));
  bag.add(
    registerCommand('aiGateway.chat.openWithModel', async (arg?: unknown) => {
      const modelId = typeof arg === 'string' ? arg : await pickChatModel(services, deps.actions);
      if (!modelId) return;
      // "Open in Chat" reuses the chat tab used last (brought to the front where it is) instead of
      // opening another editor group each time; a tab whose reply is still streaming is left alone.
      const reuse = reusablePanel();
      if (reuse) {
        reuse.panel.reveal(reuse.panel.viewColumn);
        if (await reuse.controller.startWithModel(modelId)) reuse.controller.focusInput();
        return;
      }
      await openPanel(deps, panels).startWithModel(modelId);
    }),
  );
  // Chat with Agent (the Agents view): a chat tab bound to an agent session; the argument is checked by the controller.
  bag.add(registerCommand('aiGateway.chat.openAgentSession', (arg?: unknown) => openPanel(deps, panels).openAgentSession(arg)));
  // Another feature's hand-off (src/platform/chatHandoff.ts): a conversation it saved, opened in a chat tab.
  bag.add(registerCommand('aiGateway.chat.openConversation', async (arg?: unknown) => (typeof arg === 'string' ? openPanel(deps, panels).openConversation(arg) : false)));
  bag.add(
    registerCommand('aiGateway.chat.newConversation', async () => {
      await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
      await provider.controller?.handle({ type: 'newConversation' });
      provider.focusInput();
    }),
  );
  registerTitleActions(bag, deps, provider, panels, registerCommand);
  registerEverydayActions(bag, provider, registerCommand);
  return bag;
}

/**
 * Open Chat, Add Selection to Chat and Stop Chat Reply (each with a key binding): they act on the chat
 * tab that was active last when one is open, else on the sidebar chat.
 */
function registerEverydayActions(bag: DisposableStore, provider: ChatViewProvider, registerCommand: CommandRegistrar): void {
  const target = async (): Promise<ChatController | undefined> => {
    const tab = activePanel();
    if (tab) {
      tab.panel.reveal(undefined, false);
      return tab.controller;
    }
    return provider.reveal();
  };
  bag.add(
    registerCommand('aiGateway.chat.open', async () => {
      await provider.reveal();
      provider.focusInput();
    }),
  );
  bag.add(
    registerCommand('aiGateway.chat.attachSelection', async () => {
      // The selection is read from the last text editor (tracked from activation on), before the chat takes the focus.
      const c = await target();
      if (!c) return;
      await c.handle({ type: 'attach', kind: 'selection' });
      c.focusInput();
    }),
  );
  // Alt+F1 in the chat, as VS Code's own Accessibility Help: the chat's keys, in a modal dialog (Escape closes it, the keyboard goes back).
  bag.add(
    registerCommand('aiGateway.chat.accessibilityHelp', async (from?: unknown) => {
      // From the chat's own key (the binding passes 'chat'): the chat it was pressed in gets the keyboard back after.
      const tab = from === 'chat' ? [...panelControllers.keys()].find((p) => p.active) : undefined;
      const help = chatAccessibilityHelp(process.platform === 'darwin');
      await vscode.window.showInformationMessage(help.title, { modal: true, detail: help.detail });
      if (from !== 'chat') return;
      if (tab) panelControllers.get(tab)?.focusInput();
      else provider.focusInput();
    }),
  );
  bag.add(
    registerCommand('aiGateway.chat.stop', async () => {
      const busy = [...busyContext.controllers].filter((c) => c.busy);
      // The chat in front first; any running reply otherwise (Stop is harmless on an idle chat).
      const front = activePanel()?.controller;
      const c = front?.busy ? front : provider.controller?.busy ? provider.controller : busy[0];
      if (c) await c.handle({ type: 'stop' });
    }),
  );
}

const busyMove = (): string => vscode.l10n.t('Wait for the reply to finish (or stop it) before moving the chat.');

/** New Chat, Conversation History, Export and Open in Editor / Move to Sidebar: the view and tab title actions. */
function registerTitleActions(bag: DisposableStore, deps: ChatDeps, provider: ChatViewProvider, panels: ChatPanels, registerCommand: CommandRegistrar): void {
  const command = (id: CommandId, fn: () => unknown) => bag.add(registerCommand(id, fn));
  const exportOf = (c: ChatController) => c.handle({ type: 'exportConversation', conversationId: c.conversationInfo.id });
  command('aiGateway.chat.history', async () => {
    // The picked conversation opens in the sidebar chat: a chat kept hidden is shown first, so the
    // pick is not made into a view nobody sees. Unfocused: the QuickPick must keep the keyboard.
    const c = await provider.reveal({ preserveFocus: true });
    if (!c) return;
    if (!provider.visible) provider.showUnfocused();
    await showHistory(deps.store, c);
  });
  command('aiGateway.chat.export', async () => {
    // Unfocused: the save dialog that follows is a QuickInput in the browser (see reveal).
    const c = await provider.reveal({ preserveFocus: true });
    if (c) await exportOf(c);
  });
  command('aiGateway.chat.moveToEditor', async () => {
    const from = await provider.reveal();
    if (from?.busy) return void vscode.window.showInformationMessage(busyMove());
    const info = from?.conversationInfo;
    const to = openPanel(deps, panels);
    if (from && info?.saved) {
      await to.openConversation(info.id);
      await from.handle({ type: 'newConversation' });
    }
  });
  command('aiGateway.chat.tab.newConversation', async () => {
    const t = activePanel();
    if (!t) return;
    await t.controller.handle({ type: 'newConversation' });
    t.controller.focusInput();
  });
  command('aiGateway.chat.tab.history', async () => {
    const t = activePanel();
    if (t) await showHistory(deps.store, t.controller);
  });
  command('aiGateway.chat.tab.export', async () => {
    const t = activePanel();
    if (t) await exportOf(t.controller);
  });
  command('aiGateway.chat.moveToSidebar', async () => {
    const t = activePanel();
    if (!t) return;
    if (t.controller.busy) return void vscode.window.showInformationMessage(busyMove());
    const info = t.controller.conversationInfo;
    const to = await provider.reveal();
    if (to && info.saved) await to.openConversation(info.id);
    provider.focusInput();
    t.panel.dispose();
  });
}
