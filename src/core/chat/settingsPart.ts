/**
 * The composer's settings and the editor's actions: the model, the temperature and the system prompt
 * of the open conversation, the attachments of the next message, and what the webview asks the editor
 * to do (copy, insert code, new file, open a link, set the API key).
 */
import { isRemoved, chatModelOptions } from './modelOptions';
import { readReasoningEffort, reasoningCostNote } from '../gateway/reasoningEffort';
import * as l10n from '../l10n';
import type { Conversation } from './conversation';
import type { HandlersFor } from './chatDeps';
import type { ChatView } from './chatView';
import type { AgentRun } from './agentRun';

type AttachKind = 'selection' | 'file' | 'workspace' | 'image';

export class SettingsPart {
  constructor(
    private readonly view: ChatView,
    private readonly agent: AgentRun,
  ) {}

  readonly handlers: HandlersFor<
    | 'selectModel'
    | 'pickModel'
    | 'pickReasoningEffort'
    | 'setTemperature'
    | 'setSystemPrompt'
    | 'attach'
    | 'attachMenu'
    | 'removeAttachment'
    | 'setApiKey'
    | 'copy'
    | 'insertCode'
    | 'newFile'
    | 'applyCode'
    | 'openLink'
  > = {
    selectModel: (msg) => this.selectModel(msg.modelId),
    pickModel: async () => {
      const { view } = this;
      const id = await view.deps.host.pickModel?.(chatModelOptions(view.deps.models.chatModels(), view.now(), view.conv.temperature), view.conv.modelId || undefined);
      // Picked or dismissed: the keyboard goes back to the chat it came from.
      view.deps.takeFocus?.();
      return id ? this.selectModel(id) : undefined;
    },
    pickReasoningEffort: () => this.pickReasoningEffort(),
    setTemperature: async (msg) => {
      const next: Conversation = { ...this.view.conv };
      if (msg.value === null) delete next.temperature;
      else next.temperature = msg.value;
      await this.view.commit(next);
    },
    setSystemPrompt: async (msg) => {
      await this.view.commit({ ...this.view.conv, systemPrompt: msg.text });
    },
    attach: (msg) => this.attach(msg.kind),
    attachMenu: async () => {
      const kind = await this.view.deps.host.pickAttachKind?.(this.view.imageInput());
      if (kind) await this.attach(kind);
      // Attached or dismissed: the keyboard goes back to the chat it came from.
      this.view.deps.takeFocus?.();
    },
    removeAttachment: (msg) => {
      this.view.attachments = this.view.attachments.filter((a) => a.id !== msg.attachmentId);
      return this.view.postState();
    },
    setApiKey: () => this.view.deps.host.setApiKey(),
    copy: (msg) => this.view.deps.host.copy(msg.text),
    insertCode: (msg) => this.view.deps.host.insertCode(msg.code, msg.language),
    newFile: (msg) => this.view.deps.host.newFile(msg.code, msg.language),
    applyCode: async (msg) => this.view.deps.host.applyCode?.(msg.code, msg.language),
    openLink: (msg) => this.view.deps.host.openLink(msg.href),
  };

  async selectModel(modelId: string): Promise<void> {
    const { view } = this;
    const model = view.deps.models.getModel(modelId);
    if (!model || isRemoved(model, view.now()) || !chatModelOptions([model], view.now()).length) {
      view.notice(`Model ${modelId} is not available for chat.`);
      return view.postState();
    }
    if (!(await view.commit({ ...view.conv, modelId }, 'Could not save the model choice to chat history'))) return;
    await view.deps.prefs.setLastModelId(modelId);
    await view.postState();
    // Agent mode stays on across a model change; a tools model needs its tool count.
    await this.agent.ensureToolCount();
  }

  /**
   * The reasoning-effort button: the model's values from the catalog (reasoningEffort.ts, the one place
   * that reads it). A catalog entry in a form this version does not read is said, never guessed at.
   */
  private async pickReasoningEffort(): Promise<void> {
    const { view } = this;
    const model = view.currentModel();
    const support = readReasoningEffort(model);
    if (!model || support.kind === 'none') {
      view.notice(l10n.t('This model does not take a reasoning effort: nothing is sent for it.'));
      return;
    }
    if (support.kind === 'unknown') {
      view.notice(l10n.t('The catalog describes the reasoning setting of {0} ({1}) in a form this version does not read: no reasoning effort is sent.', model.id, support.parameter));
      return;
    }
    const current = view.conv.reasoningEffort;
    const picked = await view.deps.host.pickReasoningEffort?.({
      model: model.display_name || model.id,
      values: support.values,
      ...(support.defaultValue !== undefined ? { defaultValue: support.defaultValue } : {}),
      current: typeof current === 'string' && support.values.includes(current) ? current : undefined,
      costNote: reasoningCostNote(model.pricing),
    });
    // Picked or dismissed: the keyboard goes back to the chat it came from.
    view.deps.takeFocus?.();
    if (!picked) return;
    const next: Conversation = { ...view.conv };
    if (picked.value === null) delete next.reasoningEffort;
    else if (support.values.includes(picked.value)) next.reasoningEffort = picked.value;
    else return;
    if (await view.commit(next, 'Could not save the reasoning effort to chat history')) await view.postState();
  }

  private async attach(kind: AttachKind): Promise<void> {
    const { view } = this;
    if (kind === 'image' && !view.imageInput()) {
      view.notice('This model does not take images. Choose a model with image input to attach images.');
      return;
    }
    const picked = await view.deps.host.pickAttachments(kind);
    view.attachments.push(...picked);
    return view.postState();
  }
}
