/**
 * The inspector's browser files, bundled at build time (scripts/build-inspector.mjs writes them
 * next to this module's compiled file: dist/src/inspector/assets/). Read once, served from memory.
 */
import { readFile } from 'node:fs/promises';

/** The files of the page, by the name the page asks for. */
export const ASSET_TYPES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

/** Where the built files are by default: `assets/` beside this module. */
export function defaultAssetsDir(): URL {
  return new URL('./assets/', import.meta.url);
}

/** Loads the built files of `dir`; a clear error when they were not built. */
export function assetLoader(dir: string | URL): (name: string) => Promise<string> {
  const cache = new Map<string, Promise<string>>();
  const base = typeof dir === 'string' ? new URL(`file://${dir.replace(/\/?$/, '/')}`) : dir;
  return (name) => {
    let text = cache.get(name);
    if (!text) {
      text = readFile(new URL(name, base), 'utf8').catch((error: unknown) => {
        cache.delete(name);
        const why = (error as { code?: string }).code ?? String(error);
        throw new Error(
          `the inspector's browser files are missing (${why} for ${name} in ${base.pathname}): ` +
            'run `npm run build` (it bundles them)',
        );
      });
      cache.set(name, text);
    }
    return text;
  };
}
