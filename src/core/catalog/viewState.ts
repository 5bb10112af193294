/**
 * The Models view's filter and grouping, persisted (globalState) so they survive restarts. The text
 * filter is per session on purpose: a forgotten name filter that hides models next week is a trap.
 */
import * as l10n from '../l10n';
import { Emitter, Disposable } from '../disposables';
import { CAPABILITIES, type Capability } from '../gateway/types';
import type { KeyValueStorage } from './catalogStore';
import { capabilityLabel } from './capabilityWords';
import { GROUPINGS, type CatalogFilter, type Grouping } from './tree';

export const GROUPING_KEY = 'aiGateway.catalog.grouping';
export const CAPABILITY_FILTER_KEY = 'aiGateway.catalog.capabilityFilter';


export class CatalogViewState extends Disposable {
  private _grouping: Grouping;
  private _capabilities: Capability[];
  private _text = '';
  private readonly _onDidChange = this._register(new Emitter<void>());
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly storage: KeyValueStorage) {
    super();
    const g = storage.get<unknown>(GROUPING_KEY);
    this._grouping = GROUPINGS.includes(g as Grouping) ? (g as Grouping) : 'provider';
    // Only documented capabilities are kept: a stale or hand-edited value must not hide everything.
    const caps = storage.get<unknown>(CAPABILITY_FILTER_KEY);
    this._capabilities = Array.isArray(caps) ? CAPABILITIES.filter((c) => caps.includes(c)) : [];
  }

  get grouping(): Grouping {
    return this._grouping;
  }

  get capabilities(): readonly Capability[] {
    return this._capabilities;
  }

  get text(): string {
    return this._text;
  }

  get isFiltered(): boolean {
    return this._capabilities.length > 0 || this._text.length > 0;
  }

  filter(showRemoved: boolean): CatalogFilter {
    return { capabilities: this._capabilities, text: this._text, showRemoved };
  }

  /** provider -> capability -> flat -> provider. */
  async cycleGrouping(): Promise<Grouping> {
    const next = GROUPINGS[(GROUPINGS.indexOf(this._grouping) + 1) % GROUPINGS.length];
    await this.setGrouping(next);
    return next;
  }

  async setGrouping(g: Grouping): Promise<void> {
    this._grouping = g;
    this._onDidChange.fire();
    await this.storage.update(GROUPING_KEY, g);
  }

  async setCapabilities(caps: readonly string[]): Promise<void> {
    this._capabilities = CAPABILITIES.filter((c) => caps.includes(c));
    this._onDidChange.fire();
    await this.storage.update(CAPABILITY_FILTER_KEY, this._capabilities);
  }

  setText(text: string): void {
    this._text = text.trim();
    this._onDidChange.fire();
  }

  /** Clears the capability and the text filter (the one-click view/title action). */
  async clear(): Promise<void> {
    this._text = '';
    await this.setCapabilities([]);
  }

  /** The view's `description`: "Tool calling, Image input (vision) · “gpt”", or "" when unfiltered. */
  description(): string {
    const parts: string[] = [];
    if (this._capabilities.length) parts.push(this._capabilities.map(capabilityLabel).join(', '));
    if (this._text) parts.push(`“${this._text}”`);
    return parts.join(' · ');
  }

  groupingLabel(): string {
    switch (this._grouping) {
      case 'provider':
        return l10n.t('by provider');
      case 'capability':
        return l10n.t('by capability');
      case 'flat':
        return l10n.t('flat list');
    }
  }
}
