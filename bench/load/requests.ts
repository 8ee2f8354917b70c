/** The requests the load generator sends, the same bytes to every SDK. */

/** Headers of every A2A request (A2A 1.0 requires the version header). */
export const A2A_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
  'a2a-version': '1.0',
};

/** The user message, with `[<id>]` where the load generator puts a fresh id. */
function message(messageId: string, text: string): string {
  return `{"messageId":"${messageId}","role":"ROLE_USER","parts":[{"text":"${text}"}]}`;
}

/** A JSON-RPC SendMessage / SendStreamingMessage body. */
export function jsonrpcBody(method: string, messageId: string, text: string): string {
  return `{"jsonrpc":"2.0","id":1,"method":"${method}","params":{"message":${message(messageId, text)}}}`;
}

/** An HTTP+JSON `message:send` / `message:stream` body. */
export function restBody(messageId: string, text: string): string {
  return `{"message":${message(messageId, text)}}`;
}

/** The binding a request goes through. */
export type Binding = 'jsonrpc' | 'rest';

/** Path and body of a (streaming or not) send over `binding`. */
export function sendRequest(
  binding: Binding,
  streaming: boolean,
  messageId: string,
  text: string,
): { path: string; body: string } {
  if (binding === 'jsonrpc') {
    const method = streaming ? 'SendStreamingMessage' : 'SendMessage';
    return { path: '/a2a/jsonrpc', body: jsonrpcBody(method, messageId, text) };
  }
  const path = streaming ? '/a2a/rest/message:stream' : '/a2a/rest/message:send';
  return { path, body: restBody(messageId, text) };
}

/** Headers of an A2A 0.3 request: no `A2A-Version` (absent means 0.3, spec §3.6.2). */
export const A2A_03_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'application/json',
};

/** Path and body of a blocking 0.3 send (`message/send`; REST `POST /v1/message:send`). */
export function send03Request(
  binding: Binding,
  messageId: string,
  text: string,
): { path: string; body: string } {
  const message = `{"kind":"message","messageId":"${messageId}","role":"user","parts":[{"kind":"text","text":"${text}"}]}`;
  if (binding === 'jsonrpc') {
    return {
      path: '/a2a/jsonrpc',
      body: `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":${message}}}`,
    };
  }
  const proto = `{"messageId":"${messageId}","role":"ROLE_USER","content":[{"text":"${text}"}]}`;
  return {
    path: '/a2a/rest/v1/message:send',
    body: `{"message":${proto},"configuration":{"blocking":true}}`,
  };
}
