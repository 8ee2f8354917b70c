/** Builds the parts of the message `a2a send` sends: text, `--data` JSON, `--file` contents. */
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { dataPart, rawPart, textPart } from '../core/parts.js';
import type { Part } from '../core/schemas/index.js';
import { CliError, EXIT, UsageError } from './exit-codes.js';

const MEDIA_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.xml': 'application/xml',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
  '.pdf': 'application/pdf',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
};

/** The media type of a file name, guessed from its extension. */
export function mediaTypeOf(path: string): string {
  return MEDIA_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** What the user asked to send. */
export interface PartSources {
  text: string;
  data?: string | undefined;
  file?: string | undefined;
}

/** The message parts, in order text, data, file; a usage error when there is nothing to send. */
export async function messageParts(sources: PartSources): Promise<Part[]> {
  const parts: Part[] = [];
  if (sources.text !== '') parts.push(textPart(sources.text));
  if (sources.data !== undefined) {
    let data: unknown;
    try {
      data = JSON.parse(sources.data) as unknown;
    } catch (error) {
      throw new UsageError(
        `--data is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
        `quote it for the shell: --data '{"date":"2026-12-24"}'`,
      );
    }
    parts.push(dataPart(data));
  }
  if (sources.file !== undefined) {
    let bytes: Uint8Array;
    try {
      bytes = await readFile(sources.file);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new CliError(
        EXIT.USAGE,
        `cannot read --file ${sources.file}: ${code === 'ENOENT' ? 'no such file' : String(code ?? error)}`,
      );
    }
    parts.push(
      rawPart(bytes, { mediaType: mediaTypeOf(sources.file), filename: basename(sources.file) }),
    );
  }
  if (parts.length === 0) {
    throw new UsageError('nothing to send', 'give some text, --data JSON or --file PATH');
  }
  return parts;
}
