/**
 * One step of a multi-step input (#29.13): VS Code's own input box and quick pick with their step
 * counter ("2/4" in the title bar, QuickInput step/totalSteps), so the user sees where they are, with
 * the focus kept when the window loses it. showInputBox/showQuickPick take no step, hence these.
 */
import * as vscode from 'vscode';

export interface InputStepOptions {
  title: string;
  step?: number;
  totalSteps?: number;
  prompt?: string;
  placeHolder?: string;
  value?: string;
  password?: boolean;
  validateInput?: (value: string) => string | undefined;
  /** Hides the box (answered as Escape) when aborted, e.g. when whoever asked no longer waits. */
  signal?: AbortSignal;
}

/** The text entered, or undefined when the user pressed Escape. */
export function inputStep(options: InputStepOptions): Promise<string | undefined> {
  const box = vscode.window.createInputBox();
  box.title = options.title;
  box.step = options.step;
  box.totalSteps = options.totalSteps;
  box.prompt = options.prompt;
  box.placeholder = options.placeHolder;
  box.value = options.value ?? '';
  box.password = options.password ?? false;
  box.ignoreFocusOut = true;
  const validate = (v: string): string | undefined => options.validateInput?.(v) || undefined;
  return new Promise<string | undefined>((resolve) => {
    let done = false;
    const finish = (value: string | undefined): void => {
      if (done) return;
      done = true;
      resolve(value);
      subs.forEach((d) => d.dispose());
      box.dispose();
    };
    const subs = [
      box.onDidChangeValue((v) => (box.validationMessage = validate(v))),
      box.onDidAccept(() => {
        const problem = validate(box.value);
        box.validationMessage = problem;
        if (!problem) finish(box.value);
      }),
      box.onDidHide(() => finish(undefined)),
    ];
    if (options.signal?.aborted) return finish(undefined);
    options.signal?.addEventListener('abort', () => box.hide(), { once: true });
    // An initial value is checked at once, as showInputBox does.
    if (box.value) box.validationMessage = validate(box.value);
    box.show();
  });
}

export interface PickStepOptions<T = vscode.QuickPickItem> {
  title: string;
  step?: number;
  totalSteps?: number;
  placeHolder?: string;
  /** The item highlighted when the pick opens (Enter picks it), e.g. a default. */
  active?: T;
  /** Hides the pick (answered as Escape) when aborted. */
  signal?: AbortSignal;
}

/**
 * Shows `pick` as one step and settles once: with what `listen` passes to `finish` (its handlers may
 * leave the pick open), or undefined on Escape, hide or abort. The pick and its handlers are disposed
 * when it settles.
 */
function showPick<T extends vscode.QuickPickItem, R>(
  pick: vscode.QuickPick<T>,
  items: readonly T[],
  options: PickStepOptions<T>,
  listen: (finish: (value: R | undefined) => void) => vscode.Disposable[],
  beforeShow: () => void,
): Promise<R | undefined> {
  pick.title = options.title;
  pick.step = options.step;
  pick.totalSteps = options.totalSteps;
  pick.placeholder = options.placeHolder;
  pick.items = items;
  pick.ignoreFocusOut = true;
  return new Promise<R | undefined>((resolve) => {
    let done = false;
    const finish = (value: R | undefined): void => {
      if (done) return;
      done = true;
      resolve(value);
      subs.forEach((d) => d.dispose());
      pick.dispose();
    };
    const subs = [...listen(finish), pick.onDidHide(() => finish(undefined))];
    if (options.signal?.aborted) return finish(undefined);
    options.signal?.addEventListener('abort', () => pick.hide(), { once: true });
    beforeShow();
    pick.show();
  });
}

/** The item picked, or undefined when the user pressed Escape. */
export function pickStep<T extends vscode.QuickPickItem>(items: readonly T[], options: PickStepOptions<T>): Promise<T | undefined> {
  const pick = vscode.window.createQuickPick<T>();
  return showPick<T, T>(
    pick,
    items,
    options,
    (finish) => [pick.onDidAccept(() => finish(pick.selectedItems[0] ?? pick.activeItems[0]))],
    () => {
      if (options.active) pick.activeItems = [options.active];
    },
  );
}

export interface MultiPickStepOptions<T = vscode.QuickPickItem> extends Omit<PickStepOptions<T>, 'active'> {
  /** The items checked when the pick opens (e.g. a default). */
  selected?: readonly T[];
  /** Why the checked items cannot be accepted (shown in place of the placeholder, the pick stays open), or undefined. */
  validate?: (selected: readonly T[]) => string | undefined;
}

/**
 * A step with a check box per item (QuickPick canSelectMany: Space checks the focused item, Enter
 * accepts what is checked, Escape cancels). Resolves with the checked items, in the order of `items`,
 * or undefined when the user pressed Escape. An Enter the validation refuses keeps the pick open with the
 * reason in its placeholder.
 */
export function multiPickStep<T extends vscode.QuickPickItem>(items: readonly T[], options: MultiPickStepOptions<T>): Promise<T[] | undefined> {
  const pick = vscode.window.createQuickPick<T>();
  pick.canSelectMany = true;
  const inOrder = (chosen: readonly T[]): T[] => items.filter((i) => chosen.includes(i));
  return showPick<T, T[]>(
    pick,
    items,
    options,
    (finish) => [
      pick.onDidChangeSelection((chosen) => {
        // A reason shown for an earlier Enter goes once the choice is acceptable.
        if (!options.validate?.(chosen)) pick.placeholder = options.placeHolder;
      }),
      pick.onDidAccept(() => {
        const chosen = inOrder(pick.selectedItems);
        const problem = options.validate?.(chosen);
        if (problem) {
          pick.placeholder = options.placeHolder ? `${problem} ${options.placeHolder}` : problem;
          return;
        }
        finish(chosen);
      }),
    ],
    () => {
      if (options.selected?.length) pick.selectedItems = options.selected;
    },
  );
}
