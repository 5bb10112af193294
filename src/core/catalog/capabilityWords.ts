/**
 * The catalog's capabilities in words, in the display language (#41.10): the filter, the tree's
 * capability groups and the view's description show "Image generation", not `image_generation`.
 * A capability outside the documented set keeps the name the gateway gave it. (Each comment is
 * written out: the l10n extractor reads literals only.)
 */
import * as l10n from '../l10n';

export function capabilityLabel(capability: string): string {
  switch (capability) {
    case 'chat':
      return l10n.t({ message: 'Chat', comment: ['a capability of a model in the catalog, a label'] });
    case 'image_generation':
      return l10n.t({ message: 'Image generation', comment: ['a capability of a model in the catalog, a label'] });
    case 'speech_generation':
      return l10n.t({ message: 'Speech generation', comment: ['a capability of a model in the catalog, a label'] });
    case 'transcription':
      return l10n.t({ message: 'Transcription', comment: ['a capability of a model in the catalog, a label'] });
    case 'alt_text':
      return l10n.t({ message: 'Alt text', comment: ['a capability of a model in the catalog, a label'] });
    case 'summary':
      return l10n.t({ message: 'Summary', comment: ['a capability of a model in the catalog, a label'] });
    case 'taxonomy':
      return l10n.t({ message: 'Taxonomy', comment: ['a capability of a model in the catalog, a label'] });
    case 'messages':
      return l10n.t({ message: 'Messages API', comment: ['a capability of a model in the catalog, a label'] });
    case 'tools':
      return l10n.t({ message: 'Tool calling', comment: ['a capability of a model in the catalog, a label'] });
    case 'vision':
      return l10n.t({ message: 'Image input (vision)', comment: ['a capability of a model in the catalog, a label'] });
    case 'documents':
      return l10n.t({ message: 'Document input', comment: ['a capability of a model in the catalog, a label'] });
    case 'reasoning':
      return l10n.t({ message: 'Reasoning', comment: ['a capability of a model in the catalog, a label'] });
    case 'web_search':
      return l10n.t({ message: 'Web search', comment: ['a capability of a model in the catalog, a label'] });
    default:
      return capability;
  }
}
