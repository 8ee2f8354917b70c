// Builds what `npm run bench` runs: every .ts file of src/ and bench/ (tests excluded),
// transpiled one file at a time into dist/bench-run/ (same relative layout, so `../src/...`
// imports resolve). `--root=DIR --out=DIR` transpiles another tree the same way (the
// `--baseline` build of bench/baseline.ts). No type check here: `npm test` type-checks bench/ with the rest of the
// project, and per-file transpiling is safe because the project uses isolatedModules and
// verbatimModuleSyntax. Takes a second or two, so a fresh clone runs the bench right away.
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const root = arg('root') ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const out = arg('out') ?? join(root, 'dist', 'bench-run');

/** The .ts files under `dir`, tests and declaration files excluded. */
function sources(dir) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sources(path));
    else if (/\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name)) files.push(path);
  }
  return files;
}

const compilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  verbatimModuleSyntax: true,
  sourceMap: false,
};

rmSync(out, { recursive: true, force: true });
let count = 0;
for (const file of [...sources(join(root, 'src')), ...sources(join(root, 'bench'))]) {
  const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), {
    compilerOptions,
    fileName: file,
  });
  const target = join(out, relative(root, file)).replace(/\.ts$/, '.js');
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, outputText);
  count++;
}
writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
// The gRPC binding loads proto/ relative to its sources (bench/inprocess/compat03-grpc.ts).
if (existsSync(join(root, 'proto')))
  cpSync(join(root, 'proto'), join(out, 'proto'), { recursive: true });
console.log(`bench: transpiled ${count} files into ${relative(root, out)}/`);
