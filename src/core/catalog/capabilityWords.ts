/**
 * The catalog's capabilities in words, in the display language (#41.10): the filter, the tree's
 * capability groups and the view's description show "Image generation", not `image_generation`.
 * A capability outside the documented set keeps the name the gateway gave it. Only "Reasoning" carries a
 * translator's comment (a key of its own): elsewhere the word names the chat's reasoning output. The others
 * go without, to keep the activation bundle small (this module loads with the Models view).
 */
import * as l10n from '../l10n';

export function capabilityLabel(capability: string): string {
  switch (capability) {
    case 'chat':
      return l10n.t('Chat');
    case 'image_generation':
      return l10n.t('Image generation');
    case 'speech_generation':
      return l10n.t('Speech generation');
    case 'transcription':
      return l10n.t('Transcription');
    case 'alt_text':
      return l10n.t('Alt text');
    case 'summary':
      return l10n.t('Summary');
    case 'taxonomy':
      return l10n.t('Taxonomy');
    case 'messages':
      return l10n.t('Messages API');
    case 'tools':
      return l10n.t('Tool calling');
    case 'vision':
      return l10n.t('Image input (vision)');
    case 'documents':
      return l10n.t('Document input');
    case 'reasoning':
      return l10n.t({ message: 'Reasoning', comment: ['a capability of a model in the catalog, a label'] });
    case 'web_search':
      return l10n.t('Web search');
    default:
      return capability;
  }
}
