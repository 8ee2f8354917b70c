/**
 * UTF-8 in gRPC requests. A proto3 `string` field MUST hold valid UTF-8, and a parser should
 * refuse one that does not (protobuf language guide, "Scalar Value Types"); the JSON bindings
 * refuse such bytes too (RFC 8259 §8.1). protobufjs, under @grpc/proto-loader, decodes strings
 * leniently, putting U+FFFD in place of bad bytes. So the encoded request is read once more, by
 * its schema, before it is decoded: every `string` field (nested messages, map keys and values,
 * Struct contents) must be UTF-8: ASCII is checked in place, anything else with a fatal
 * TextDecoder.
 *
 * The reader follows the protobuf wire format (protobuf.dev "Encoding"): a known field must come
 * with the wire type of its declared type (or length-delimited, packed, for repeated numbers);
 * unknown fields, groups included, are skipped. Whatever it cannot read is refused too: the
 * decoder could only have read it differently.
 */
import { A2AError } from '../../core/errors.js';
import { proto, type WireField } from './proto.js';

/** The wire type a field of each declared type arrives with. */
const WIRE_TYPE: Readonly<Record<string, number>> = {
  TYPE_DOUBLE: 1,
  TYPE_FLOAT: 5,
  TYPE_INT64: 0,
  TYPE_UINT64: 0,
  TYPE_INT32: 0,
  TYPE_FIXED64: 1,
  TYPE_FIXED32: 5,
  TYPE_BOOL: 0,
  TYPE_STRING: 2,
  TYPE_MESSAGE: 2,
  TYPE_BYTES: 2,
  TYPE_UINT32: 0,
  TYPE_ENUM: 0,
  TYPE_SFIXED32: 5,
  TYPE_SFIXED64: 1,
  TYPE_SINT32: 0,
  TYPE_SINT64: 0,
};

/** Nesting past this is left to the decoder, which refuses it (protobufjs' recursion limit). */
const MAX_DEPTH = 100;

class Malformed extends Error {}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strict.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * INVALID_PARAMS naming the first `string` field of `bytes` (an encoded `type`) that is not
 * UTF-8, or the reason the bytes cannot be read; undefined when every string is UTF-8.
 */
export function utf8Error(bytes: Uint8Array, type: string): A2AError | undefined {
  try {
    const field = new Reader(bytes).message(type, bytes.length, '', 0, false);
    if (field === undefined) return undefined;
    const description = 'must be valid UTF-8';
    return new A2AError(
      'INVALID_PARAMS',
      `Invalid request: ${field || 'a field'}: ${description}`,
      {
        fieldViolations: [{ field, description }],
      },
    );
  } catch (error) {
    if (!(error instanceof Malformed)) throw error;
    return new A2AError(
      'INVALID_PARAMS',
      `The request is not a valid ${type.split('.').pop() ?? type} message: ${error.message}`,
    );
  }
}

class Reader {
  private pos = 0;

  constructor(private readonly buf: Uint8Array) {}

  /**
   * Reads the fields of a `type` message up to `end`; returns the ProtoJSON path of the first
   * string that is not UTF-8 (`fixed`: the path stops growing, inside map entries and Struct).
   */
  message(
    type: string,
    end: number,
    path: string,
    depth: number,
    fixed: boolean,
  ): string | undefined {
    if (depth > MAX_DEPTH) {
      this.pos = end; // the decoder refuses this nesting itself
      return undefined;
    }
    const fields = proto().wireFields(type);
    let counts: Map<number, number> | undefined;
    while (this.pos < end) {
      const tag = this.varint(end);
      const number = Math.floor(tag / 8);
      const wireType = tag % 8;
      const field = fields.get(number);
      if (field === undefined) {
        this.skip(wireType, number, end, depth);
        continue;
      }
      let index = 0;
      if (field.repeated) {
        counts ??= new Map();
        index = counts.get(number) ?? 0;
        counts.set(number, index + 1);
      }
      const at = childPath(path, field, index, fixed);
      const bad = this.field(field, wireType, end, at, depth, fixed);
      if (bad !== undefined) return bad;
    }
    if (this.pos !== end) throw new Malformed('a field runs past the end of its message');
    return undefined;
  }

  private field(
    field: WireField,
    wireType: number,
    end: number,
    path: string,
    depth: number,
    fixed: boolean,
  ): string | undefined {
    const expected = WIRE_TYPE[field.type];
    if (wireType !== expected && !(field.repeated && wireType === 2)) {
      throw new Malformed(`${path || field.key} has wire type ${wireType}, not ${expected}`);
    }
    if (wireType !== 2) {
      this.skip(wireType, 0, end, depth);
      return undefined;
    }
    const length = this.varint(end);
    const stop = this.pos + length;
    if (stop > end) throw new Malformed(`${path || field.key} runs past the end of the message`);
    if (field.type === 'TYPE_STRING' && !this.utf8(stop)) return path;
    if (field.message !== undefined) {
      const { name, mapEntry } = field.message;
      const keep = fixed || mapEntry || name.startsWith('google.protobuf.');
      const bad = this.message(name, stop, path, depth + 1, keep);
      if (bad !== undefined) return bad;
    }
    this.pos = stop;
    return undefined;
  }

  /** Skips one value of `wireType`; a group (3) up to its end tag for field `number`. */
  private skip(wireType: number, number: number, end: number, depth: number): void {
    switch (wireType) {
      case 0:
        this.varint(end);
        return;
      case 1:
        return this.advance(8, end);
      case 2:
        return this.advance(this.varint(end), end);
      case 5:
        return this.advance(4, end);
      case 3: {
        if (depth > MAX_DEPTH) throw new Malformed('groups nest too deep');
        for (;;) {
          const tag = this.varint(end);
          if (tag % 8 === 4) {
            if (Math.floor(tag / 8) !== number)
              throw new Malformed('a group ends with another tag');
            return;
          }
          this.skip(tag % 8, Math.floor(tag / 8), end, depth + 1);
        }
      }
      default:
        throw new Malformed(`wire type ${wireType} is not valid here`);
    }
  }

  /** True when the bytes from here to `stop` are UTF-8 (ASCII checked here, the rest decoded). */
  private utf8(stop: number): boolean {
    const { buf } = this;
    let i = this.pos;
    while (i < stop && (buf[i] as number) < 0x80) i++;
    return i === stop || isUtf8(buf.subarray(i, stop));
  }

  private advance(count: number, end: number): void {
    if (this.pos + count > end) throw new Malformed('a value runs past the end of the message');
    this.pos += count;
  }

  /** A base-128 varint (at most 10 bytes); exact up to 2^53, which covers tags and lengths. */
  private varint(end: number): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= end) throw new Malformed('the message ends inside a number');
      const byte = this.buf[this.pos++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
    throw new Malformed('a number is longer than 10 bytes');
  }
}

/** `message.parts.0.text`: the ProtoJSON path of a field; `fixed` inside map entries and Struct. */
function childPath(path: string, field: WireField, index: number, fixed: boolean): string {
  if (fixed) return path;
  const name = path === '' ? field.key : `${path}.${field.key}`;
  return field.repeated && field.message?.mapEntry !== true ? `${name}.${index}` : name;
}
