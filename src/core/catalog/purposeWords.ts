/**
 * The purposes of the default models in words, in the display language (their own file: only
 * notices and commands need them, not activation).
 */
import * as l10n from '../l10n';
import type { DefaultModelPurpose } from './defaults';

/** PURPOSE_LABEL in the display language: "Chat", "Alt text", as a label of its own. */
export function purposeLabel(purpose: DefaultModelPurpose): string {
  switch (purpose) {
    case 'chat':
      return l10n.t({ message: 'Chat', comment: ['the purpose a default model serves, a label'] });
    case 'summary':
      return l10n.t({ message: 'Summary', comment: ['the purpose a default model serves, a label'] });
    case 'taxonomy':
      return l10n.t({ message: 'Taxonomy', comment: ['the purpose a default model serves, a label'] });
    case 'alt_text':
      return l10n.t({ message: 'Alt text', comment: ['the purpose a default model serves, a label'] });
  }
}

/** The purpose inside a sentence ("Your default {0} model"): "chat", "alt text". */
export function purposeWord(purpose: DefaultModelPurpose): string {
  switch (purpose) {
    case 'chat':
      return l10n.t({ message: 'chat', comment: ['the purpose a default model serves, inside a sentence: "your default chat model"'] });
    case 'summary':
      return l10n.t({ message: 'summary', comment: ['the purpose a default model serves, inside a sentence: "your default summary model"'] });
    case 'taxonomy':
      return l10n.t({ message: 'taxonomy', comment: ['the purpose a default model serves, inside a sentence: "your default taxonomy model"'] });
    case 'alt_text':
      return l10n.t({ message: 'alt text', comment: ['the purpose a default model serves, inside a sentence: "your default alt text model"'] });
  }
}
