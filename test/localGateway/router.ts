/**
 * A tiny router: patterns are paths whose segments may be `{name}` or `:name` (one segment each) and
 * whose last segment may be `*` (the rest of the path, in params['*']). Method '*' matches any method.
 * The first registered match wins, so the order of registration is the order of precedence.
 */
import type { Handler } from './context';

interface Route {
  method: string;
  pattern: string;
  regex: RegExp;
  names: string[];
  handler: Handler;
}

export type RouteMatch = { kind: 'found'; handler: Handler; params: Record<string, string>; pattern: string } | { kind: 'method'; allow: string[] } | { kind: 'none' };

function compile(pattern: string): { regex: RegExp; names: string[] } {
  const names: string[] = [];
  const parts = pattern.split('/').map((segment, i, all) => {
    if (segment === '*' && i === all.length - 1) {
      names.push('*');
      return '(.+)';
    }
    const m = /^\{(\w+)\}$|^:(\w+)$/.exec(segment);
    if (m) {
      names.push(m[1] ?? m[2] ?? '');
      return '([^/]+)';
    }
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return { regex: new RegExp(`^${parts.join('/')}/?$`), names };
}

export class Router {
  private readonly routes: Route[] = [];

  add(method: string, pattern: string, handler: Handler): void {
    const { regex, names } = compile(pattern);
    this.routes.push({ method: method.toUpperCase(), pattern, regex, names, handler });
  }

  match(method: string, path: string): RouteMatch {
    const allow = new Set<string>();
    for (const route of this.routes) {
      const m = route.regex.exec(path);
      if (!m) continue;
      if (route.method !== '*' && route.method !== method.toUpperCase()) {
        allow.add(route.method);
        continue;
      }
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        const raw = m[i + 1] ?? '';
        try {
          params[name] = decodeURIComponent(raw);
        } catch {
          params[name] = raw;
        }
      });
      return { kind: 'found', handler: route.handler, params, pattern: route.pattern };
    }
    return allow.size > 0 ? { kind: 'method', allow: [...allow] } : { kind: 'none' };
  }
}
