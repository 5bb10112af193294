/**
 * The route modules of the local gateway, in order of precedence (first match wins). Add yours with a
 * one-line import and one entry; the scope-table fallback stubs (scopes.ts) are always registered
 * after these, so a module implementing a documented path replaces its stub.
 */
import { agentsModule } from './agents';
import { analyticsModule } from './analytics';
import { catalogModule } from './catalog';
import { chatModule } from './chat';
import { contentModule } from './content';
import type { RouteModule } from './context';
import { hostingModule } from './hosting';
import { kbModule } from './kb';
import { mcpModule } from './mcp';
import { mediaModule } from './media';
import { messagesModule } from './messages';
import { sitesModule } from './sites';

export const ROUTE_MODULES: RouteModule[] = [
  mcpModule,
  catalogModule,
  chatModule,
  messagesModule,
  contentModule,
  mediaModule,
  analyticsModule,
  hostingModule,
  kbModule,
  agentsModule,
  sitesModule,
];
