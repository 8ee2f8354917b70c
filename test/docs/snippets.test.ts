/**
 * Docs that compile as written: every fenced TypeScript snippet (```ts / ```typescript) of
 * README.md and every .md under docs/ (docs/extensions too) is type-checked as its own module, with the repository's compiler
 * options, importing the package by name (`a2a-kit/node`, …) as a reader would. A new snippet or
 * a new doc file is picked up without an edit here.
 *
 * A snippet that needs context it does not show (a variable of the surrounding prose) declares it
 * in an HTML comment right before the fence, which the reader does not see rendered:
 * `<!-- snippet: declare const agent: Agent; -->` (the comment's text is prepended to the module).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;

/** One snippet: where it is and its code. */
interface Snippet {
  readonly doc: string;
  readonly line: number;
  readonly code: string;
}

/** The TypeScript snippets of one Markdown file. */
export function snippetsOf(doc: string, text: string): Snippet[] {
  const found: Snippet[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i] ?? '')) continue;
    let above = i - 1;
    while (above >= 0 && (lines[above] ?? '').trim() === '') above--; // Prettier adds a blank line
    const context = /^<!--\s*snippet:([\s\S]*?)-->\s*$/.exec(lines[above] ?? '')?.[1] ?? '';
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end] ?? '')) end++;
    found.push({
      doc,
      line: start,
      code: `${context.trim()}\n${lines.slice(start, end).join('\n')}`,
    });
    i = end;
  }
  return found;
}

const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  // Binding specifications (docs/bindings/nats.md).
  ...readdirSync(join(root, 'docs', 'bindings'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/bindings/${name}`),
];
const snippets = docs.flatMap((doc) => snippetsOf(doc, readFileSync(join(root, doc), 'utf8')));

/** Type-checks every snippet in one program; returns the diagnostics per snippet file. */
function typeCheck(all: readonly Snippet[]): Map<string, string[]> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!config) throw new Error('cannot read tsconfig.json');
  // Virtual files inside the repository, so `a2a-kit/*` resolves to the sources (see tsconfig).
  const files = new Map(
    all.map((s, i) => [join(root, 'test/docs', `snippet-${i}.ts`), `${s.code}\nexport {};\n`]),
  );
  const host = ts.createCompilerHost(config.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, ...rest) => {
    const text = files.get(name);
    return text !== undefined
      ? ts.createSourceFile(name, text, version)
      : getSourceFile(name, version, ...rest);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => files.has(name) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  const program = ts.createProgram([...files.keys()], { ...config.options, noEmit: true }, host);
  const result = new Map<string, string[]>();
  for (const name of files.keys()) {
    const diagnostics = [
      ...program.getSyntacticDiagnostics(program.getSourceFile(name)),
      ...program.getSemanticDiagnostics(program.getSourceFile(name)),
    ];
    result.set(
      name,
      diagnostics.map((d) => {
        const where =
          d.file && d.start !== undefined
            ? d.file.getLineAndCharacterOfPosition(d.start)
            : undefined;
        return `${where ? `line ${where.line}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      }),
    );
  }
  return result;
}

describe('docs snippets', () => {
  it('finds the snippets of README.md and docs/', () => {
    expect(snippets.length).toBeGreaterThan(5);
    expect(new Set(snippets.map((s) => s.doc))).toContain('README.md');
  });

  it('reads a context comment and the code of a fence', () => {
    const text = ['<!-- snippet: declare const x: number; -->', '', '```ts', 'x + 1;', '```'];
    expect(snippetsOf('t.md', text.join('\n'))).toEqual([
      { doc: 't.md', line: 3, code: 'declare const x: number;\nx + 1;' },
    ]);
  });

  it('type-checks every TypeScript snippet as written', () => {
    const diagnostics = typeCheck(snippets);
    const problems = [...diagnostics.values()].flatMap((list, i) => {
      const s = snippets[i] as Snippet;
      // The context comment is one line before the code: report lines of the Markdown file.
      return list.map((message) =>
        message.replace(/^line (\d+): /, (_, n: string) => `${s.doc}:${s.line + Number(n)}: `),
      );
    });
    expect(problems).toEqual([]);
  }, 120_000);
});
