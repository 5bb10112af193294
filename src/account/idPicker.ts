/**
 * The pick list for a hosting id (#29.2): the ids used before (named as the hosting API named them),
 * one pasted or typed into the list's box, or the clipboard's. The logic is in
 * src/core/account/recentIds.ts; the list is kept in globalState (ids and names only, no credential).
 *
 * The list shows at once (#41.4): the clipboard is read only when its item is chosen, because in a
 * browser-hosted workbench the read can wait 20 s or more on a permission prompt ("Unable to read from
 * the browser's clipboard…"). A clipboard that holds no id says so in the list and changes nothing.
 */
import * as vscode from 'vscode';
import { idChoices, readRecentIds, rememberId, type HostingIdKind, type IdChoice, type RecentId } from '../core/account/recentIds';
import { isUuid } from '../core/account/hosting';

const STATE_KEY = 'aiGateway.hosting.recentIds';

export class RecentHostingIds {
  constructor(private readonly state: vscode.Memento) {}

  list(): RecentId[] {
    return readRecentIds(this.state.get(STATE_KEY));
  }

  /** The name the hosting API gave this id, when it gave one. */
  nameOf(kind: HostingIdKind, id: string): string | undefined {
    const key = id.trim().toLowerCase();
    return this.list().find((r) => r.kind === kind && r.id === key)?.name;
  }

  async remember(entries: Array<Omit<RecentId, 'usedAt'>>): Promise<void> {
    let list = this.list();
    const now = Date.now();
    for (const e of entries) list = rememberId(list, e, now);
    await this.state.update(STATE_KEY, list);
  }
}

export interface IdPickOptions {
  kind: HostingIdKind;
  /** e.g. "Transfer site"; the step counter is added by VS Code. */
  title: string;
  step?: number;
  totalSteps?: number;
  /** What the id is, in words: "the install whose cache exclusions to edit". */
  what: string;
  /** Pre-selected id (e.g. the site of the last transfer). */
  preset?: string;
  /** For a transfer: only the transfers of this site. */
  siteId?: string;
}

type Item = vscode.QuickPickItem & { choice?: IdChoice; fromClipboard?: true };

/** The clipboard item's label (tests pick it by this). */
export function clipboardItemLabel(): string {
  return `$(clippy) ${vscode.l10n.t('Use the id in the clipboard')}`;
}

function noIdsYet(kind: HostingIdKind): string {
  switch (kind) {
    case 'site':
      return vscode.l10n.t('No site ids used yet');
    case 'install':
      return vscode.l10n.t('No install ids used yet');
    case 'account':
      return vscode.l10n.t('No account ids used yet');
    case 'transfer':
      return vscode.l10n.t('No transfer ids used yet');
  }
  return vscode.l10n.t('No ids used yet');
}

/** The picked or pasted id (lower case), or undefined when the user pressed Escape. */
export async function pickHostingId(recent: RecentHostingIds, o: IdPickOptions): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<Item>();
  pick.title = o.title;
  pick.step = o.step;
  pick.totalSteps = o.totalSteps;
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = true;
  pick.placeholder = vscode.l10n.t('Pick {0}, or paste its id (a UUID)', o.what);
  /** What the last clipboard read found when it was no id (shown on the clipboard item until the next read). */
  let clipboardProblem: string | undefined;
  const render = (): void => {
    const typed = pick.value.trim();
    const choices = idChoices(recent.list(), o.kind, { typed, siteId: o.siteId, now: Date.now() });
    const items: Item[] = choices.map((c) => ({ label: c.label, description: c.description, detail: c.detail, choice: c, alwaysShow: c.source !== 'recent' }));
    if (typed && !isUuid(typed) && !items.some((i) => i.label.toLowerCase().includes(typed.toLowerCase()) || i.description?.toLowerCase().includes(typed.toLowerCase()))) {
      items.push({
        label: `$(error) ${vscode.l10n.t('"{0}" is not an id', typed.slice(0, 60))}`,
        detail: vscode.l10n.t('Paste {0} as a UUID, e.g. {1}.', o.what, '4c5d6e7f-8091-42a3-b485-d6e7f8091008'),
        alwaysShow: true,
      });
    }
    if (!choices.some((c) => c.source === 'recent') && !typed) items.push({ label: noIdsYet(o.kind), detail: vscode.l10n.t('Paste {0} (a UUID) into the box above.', o.what), alwaysShow: true });
    items.push({
      label: clipboardItemLabel(),
      description: clipboardProblem ? undefined : vscode.l10n.t('read when you choose this'),
      detail: clipboardProblem ? `$(error) ${clipboardProblem}` : undefined,
      fromClipboard: true,
      alwaysShow: true,
    });
    pick.items = items;
    const preset = o.preset && !typed ? items.find((i) => i.choice?.id === o.preset?.toLowerCase()) : undefined;
    if (preset) pick.activeItems = [preset];
  };
  render();
  return new Promise<string | undefined>((resolve) => {
    let done = false;
    let reading = false;
    const finish = (v: string | undefined): void => {
      if (done) return;
      done = true;
      resolve(v);
      subs.forEach((d) => d.dispose());
      pick.dispose();
    };
    const useClipboard = async (): Promise<void> => {
      if (reading) return;
      reading = true;
      pick.busy = true;
      const text = await Promise.resolve(vscode.env.clipboard.readText()).then(
        (t) => ({ ok: true as const, t }),
        () => ({ ok: false as const, t: '' }),
      );
      reading = false;
      if (done) return; // hidden while the read waited
      pick.busy = false;
      const id = text.t.trim().toLowerCase();
      if (text.ok && isUuid(id)) return finish(id);
      // Not echoed: the clipboard may hold anything (a password), and the list stays as it was.
      clipboardProblem = !text.ok
        ? vscode.l10n.t('The clipboard could not be read. Paste {0} into the box above instead.', o.what)
        : !id
          ? vscode.l10n.t('The clipboard is empty. Copy {0} (a UUID) first, or paste it into the box above.', o.what)
          : vscode.l10n.t('The clipboard holds no id. Copy {0} (a UUID) first, or paste it into the box above.', o.what);
      render();
      const item = pick.items.find((i) => i.fromClipboard);
      if (item) pick.activeItems = [item];
    };
    const subs = [
      pick.onDidChangeValue(render),
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0] ?? pick.activeItems[0];
        if (item?.fromClipboard) return void useClipboard();
        const id = item?.choice?.id;
        if (id) finish(id);
      }),
      pick.onDidHide(() => finish(undefined)),
    ];
    pick.show();
  });
}
