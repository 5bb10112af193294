/**
 * The run form: renders a FormModel (src/protocol/toolsForm.ts) as labelled, keyboard-reachable
 * inputs and keeps the typed arguments object in step. Raw JSON is the fallback for subtrees the
 * model marks `json`, and a toggle for the whole object. No validation library here: ajv needs
 * `new Function`, which the CSP forbids; the host validates before sending.
 */
import { h } from '../kit/dom';
import { describeConstraints, formatFieldValue, initialValue, parseFieldInput, setAtPath, type FormField, type FormModel } from '../../protocol/toolsForm';
import * as l10n from '../../core/l10n';

type Segment = string | number;

function getAt(root: unknown, segments: readonly Segment[]): unknown {
  let cur = root;
  for (const s of segments) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[s];
  }
  return cur;
}

function idFor(segments: readonly Segment[]): string {
  return 'f_' + (segments.length ? segments.map((s) => String(s).replace(/[^A-Za-z0-9_-]/g, '_')).join('__') : 'root');
}

function pointer(segments: readonly Segment[]): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

export class FormView {
  private args: Record<string, unknown>;
  private readonly errors = new Map<string, string>();
  private raw = false;

  constructor(
    private readonly container: HTMLElement,
    private readonly model: FormModel,
    initial: Record<string, unknown> | undefined,
  ) {
    this.args = initial ? structuredClone(initial) : ((initialValue(model.root) as Record<string, unknown> | undefined) ?? {});
    // A schema whose root is not an object form is edited as raw JSON from the start.
    this.raw = model.root.kind !== 'object';
    this.render();
  }

  get rawMode(): boolean {
    return this.raw;
  }

  /** Switches between the form and one raw-JSON editor; refuses (returns an error) on invalid JSON. */
  toggleRaw(): string | undefined {
    if (this.raw) {
      const text = (this.container.querySelector('#raw-json') as HTMLTextAreaElement | null)?.value ?? '{}';
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return l10n.t('The arguments must be a JSON object.');
        this.args = parsed as Record<string, unknown>;
      } catch (e) {
        return l10n.t('Not valid JSON: {0}', e instanceof Error ? e.message : String(e));
      }
      if (this.model.root.kind !== 'object') return l10n.t('This schema can only be edited as JSON.');
    }
    this.raw = !this.raw;
    this.errors.clear();
    this.render();
    return undefined;
  }

  setArgs(args: Record<string, unknown>): void {
    this.args = structuredClone(args);
    this.errors.clear();
    this.render();
  }

  /** The arguments to send, or the problems that keep them from being sent. */
  collect(): { args: Record<string, unknown> } | { errors: string[] } {
    if (this.raw) {
      const text = (this.container.querySelector('#raw-json') as HTMLTextAreaElement | null)?.value ?? '{}';
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return { errors: [l10n.t('The arguments must be a JSON object.')] };
        return { args: parsed as Record<string, unknown> };
      } catch (e) {
        return { errors: [l10n.t('Not valid JSON: {0}', e instanceof Error ? e.message : String(e))] };
      }
    }
    if (this.errors.size > 0) return { errors: [...this.errors.values()] };
    return { args: structuredClone(this.args) };
  }

  /** Shows the host's validation issues next to their fields (by JSON Pointer), others on top. */
  showIssues(issues: Array<{ path: string; message: string }>): string[] {
    const unplaced: string[] = [];
    for (const i of issues) {
      const target = this.container.querySelector(`[data-pointer="${CSS.escape(i.path)}"] .err`);
      if (target && !this.raw) target.textContent = i.message;
      else unplaced.push(`${i.path || l10n.t('(arguments)')} ${i.message}`);
    }
    return unplaced;
  }

  private render(): void {
    this.container.replaceChildren();
    if (this.raw) {
      const reason = this.model.root.kind === 'object' ? '' : ` (${this.model.root.fallbackReason ?? l10n.t('not expressible as a form')})`;
      const ta = h('textarea', { id: 'raw-json', 'aria-label': `${l10n.t('Arguments as JSON')}${reason}`, spellcheck: 'false', rows: '12' });
      ta.value = JSON.stringify(this.args, null, 2);
      this.container.append(h('div', { class: 'field' }, h('label', { for: 'raw-json' }, `${l10n.t('Arguments (JSON)')}${reason}`), ta));
      return;
    }
    for (const f of this.model.root.fields ?? []) this.container.append(this.renderField(f, [f.key]));
    if ((this.model.root.fields ?? []).length === 0) this.container.append(h('p', { class: 'muted' }, l10n.t('This tool takes no arguments.')));
  }

  private onValue(field: FormField, segments: readonly Segment[], raw: string | boolean, errEl: HTMLElement, input: HTMLElement): void {
    const parsed = parseFieldInput(field, raw);
    const key = pointer(segments);
    if (!parsed.ok) {
      this.errors.set(key, parsed.error);
      errEl.textContent = parsed.error;
      input.setAttribute('aria-invalid', 'true');
      return;
    }
    this.errors.delete(key);
    errEl.textContent = '';
    input.removeAttribute('aria-invalid');
    setAtPath(this.args, segments, parsed.omit ? undefined : parsed.value);
  }

  private renderField(field: FormField, segments: Segment[]): HTMLElement {
    const value = getAt(this.args, segments);
    const id = idFor(segments);
    const label = typeof segments[segments.length - 1] === 'number' ? `${field.label} ${Number(segments[segments.length - 1]) + 1}` : field.label;
    if (field.kind === 'object') {
      const fs = h('fieldset', { 'data-pointer': pointer(segments) }, h('legend', {}, label + (field.required ? ' *' : '')));
      if (field.description) fs.append(h('div', { class: 'desc' }, field.description));
      for (const f of field.fields ?? []) fs.append(this.renderField(f, [...segments, f.key]));
      fs.append(h('div', { class: 'err', role: 'alert' }));
      return fs;
    }
    if (field.kind === 'array' && field.item) {
      const item = field.item;
      const items = Array.isArray(value) ? value : [];
      const fs = h('fieldset', { 'data-pointer': pointer(segments) }, h('legend', {}, label + (field.required ? ' *' : '')));
      if (field.description) fs.append(h('div', { class: 'desc' }, field.description));
      const hint = describeConstraints(field);
      if (hint) fs.append(h('div', { class: 'hint' }, hint));
      items.forEach((_v, i) => {
        const remove = h('button', { type: 'button', class: 'secondary', 'aria-label': l10n.t('Remove {0} item {1}', label, i + 1) }, l10n.t('Remove'));
        remove.addEventListener('click', () => {
          setAtPath(this.args, [...segments, i], undefined);
          this.render();
        });
        fs.append(h('div', { class: 'array-item' }, this.renderField(item, [...segments, i]), remove));
      });
      const add = h('button', { type: 'button', class: 'secondary' }, l10n.t('Add {0}', item.label.toLowerCase()));
      if (field.maxItems !== undefined && items.length >= field.maxItems) add.setAttribute('disabled', '');
      add.addEventListener('click', () => {
        const start = initialValue(item) ?? (item.kind === 'string' ? '' : item.kind === 'object' ? {} : item.kind === 'array' ? [] : item.kind === 'boolean' ? false : null);
        setAtPath(this.args, [...segments, items.length], start);
        this.render();
      });
      fs.append(add, h('div', { class: 'err', role: 'alert' }));
      return fs;
    }
    const wrap = h('div', { class: 'field', 'data-pointer': pointer(segments) });
    const labelEl = h('label', { for: id }, label);
    if (field.required) labelEl.append(h('span', { class: 'req', 'aria-hidden': 'true' }, ' *'));
    wrap.append(labelEl);
    const descId = `${id}_desc`;
    const errEl = h('div', { class: 'err', id: `${id}_err`, role: 'alert' });
    let input: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
    switch (field.kind) {
      case 'boolean': {
        const cb = h('input', { type: 'checkbox', id });
        cb.checked = value === true;
        cb.addEventListener('change', () => this.onValue(field, segments, cb.checked, errEl, cb));
        input = cb;
        break;
      }
      case 'enum': {
        const sel = h('select', { id });
        if (!field.required) sel.append(h('option', { value: '' }, l10n.t('(not set)')));
        (field.enumValues ?? []).forEach((v, i) => sel.append(h('option', { value: String(i) }, typeof v === 'string' ? v : JSON.stringify(v))));
        sel.value = formatFieldValue(field, value);
        if (field.required && sel.value === '' && (field.enumValues ?? []).length > 0) {
          sel.value = '0';
          setAtPath(this.args, segments, (field.enumValues ?? [])[0]);
        }
        sel.addEventListener('change', () => this.onValue(field, segments, sel.value, errEl, sel));
        input = sel;
        break;
      }
      case 'json': {
        const ta = h('textarea', { id, spellcheck: 'false', rows: '4' });
        ta.value = formatFieldValue(field, value);
        ta.addEventListener('input', () => this.onValue(field, segments, ta.value, errEl, ta));
        input = ta;
        break;
      }
      default: {
        const isNum = field.kind === 'number' || field.kind === 'integer';
        const inp = h('input', { type: isNum ? 'number' : 'text', id });
        if (isNum) {
          inp.step = field.kind === 'integer' ? '1' : 'any';
          if (field.minimum !== undefined) inp.min = String(field.minimum);
          if (field.maximum !== undefined) inp.max = String(field.maximum);
        } else {
          if (field.maxLength !== undefined) inp.maxLength = field.maxLength;
          if (field.default !== undefined) inp.placeholder = String(field.default);
        }
        inp.value = formatFieldValue(field, value);
        inp.addEventListener('input', () => this.onValue(field, segments, inp.value, errEl, inp));
        input = inp;
      }
    }
    if (field.required) input.setAttribute('aria-required', 'true');
    input.setAttribute('aria-describedby', `${descId} ${id}_err`);
    const hints: string[] = [];
    if (field.description) hints.push(field.description);
    const constraints = describeConstraints(field);
    if (constraints) hints.push(`(${constraints})`);
    if (field.kind === 'json') hints.push(field.fallbackReason ? l10n.t('Raw JSON: this part {0}.', field.fallbackReason) : l10n.t('Raw JSON: this part is not expressible as a form.'));
    wrap.append(input, h('div', { class: 'desc', id: descId }, hints.join(' ')), errEl);
    return wrap;
  }
}
