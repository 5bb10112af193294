/**
 * The model a request goes to when the user did not pick one: their default model for the
 * capability, else the catalog's first fit. Used by the content commands and Generate Image's alt text.
 */
import type { ContentCapability, ContentModel } from '../core/content/contentClient';
import type { CatalogService } from './catalogService';

/** What the default model needs: the catalog (src/services.ts composes it). */
export interface DefaultModelDeps {
  readonly catalog: Pick<CatalogService, 'ensureLoaded' | 'resolveDefaultModel'>;
}

/** The user's default model for the capability, or the catalog's first fit; undefined without a catalog. */
export async function contentModel(services: DefaultModelDeps, capability: ContentCapability): Promise<ContentModel | undefined> {
  await services.catalog.ensureLoaded();
  const model = services.catalog.resolveDefaultModel(capability);
  return model ? { id: model.id, context_window: model.context_window, capabilities: model.capabilities, max_output_tokens: model.max_output_tokens } : undefined;
}
