#!/usr/bin/env node
/**
 * Bundles the web inspector's page (src/inspector/ui: Preact + our views) into the files the
 * package ships: dist/src/inspector/assets/{index.html,app.js,app.css}. Run by `npm run build`
 * (and so by prepack); tests call `buildInspector(dir)` to bundle into a scratch directory.
 * Usage: node scripts/build-inspector.mjs [OUT_DIR]
 */
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ui = join(root, 'src', 'inspector', 'ui');

/** Writes index.html, app.js and app.css into `outDir`; resolves to app.js's sizes in bytes. */
export async function buildInspector(outDir = join(root, 'dist', 'src', 'inspector', 'assets')) {
  const { build } = await import('rolldown');
  await mkdir(outDir, { recursive: true });
  await build({
    input: join(ui, 'main.ts'),
    cwd: root,
    logLevel: 'warn',
    platform: 'browser',
    resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
    transform: { define: { 'process.env.NODE_ENV': '"production"' } },
    output: { file: join(outDir, 'app.js'), format: 'esm', minify: true, sourcemap: false },
    write: true,
  });
  await copyFile(join(ui, 'index.html'), join(outDir, 'index.html'));
  await copyFile(join(ui, 'styles.css'), join(outDir, 'app.css'));
  const js = await readFile(join(outDir, 'app.js'));
  return { bytes: js.length, gzipBytes: gzipSync(js).length, outDir };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sizes = await buildInspector(process.argv[2] ? resolve(process.argv[2]) : undefined);
  console.log(`inspector: ${sizes.outDir}/app.js ${sizes.bytes} B (${sizes.gzipBytes} B gzipped)`);
}
