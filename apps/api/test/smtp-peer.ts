import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerEnvelope } from 'smtp-server';

/** One message the peer accepted (answered 250 to its DATA). */
export interface ReceivedMail {
  /** The Message-ID header as sent, angle brackets included (what nodemailer's `info.messageId` holds); null without one. */
  messageId: string | null;
  /** The envelope sender (MAIL FROM), '' for the null sender. */
  from: string;
  /** The envelope recipients the peer accepted (RCPT TO), in order; rejected ones are not here. */
  to: string[];
  /** The Subject header, encoded words (RFC 2047) decoded. */
  subject: string;
  /**
   * The first text/plain part, its transfer encoding (quoted-printable, base64) and charset decoded, its
   * line breaks as '\n'; without the line break that ends the part, which MIME and SMTP put there anyway.
   */
  text: string;
  /** The message as it came after DATA, headers and body, read as UTF-8. */
  raw: string;
}

export type PeerMode =
  | { kind: 'accept' }
  /**
   * Every MAIL FROM answered `code message` (421 'Try again later', 554 …); a 421 also closes the
   * connection. A transaction already past MAIL FROM is refused so when its DATA ends.
   */
  | { kind: 'refuse'; code: number; message: string }
  /** The greeting is `code message` instead of 220, then the connection is closed. */
  | { kind: 'greet-refuse'; code: number; message: string }
  /** The socket is destroyed once the first bytes of the message arrive: a message longer than one chunk is cut mid-stream. */
  | { kind: 'drop' }
  /**
   * The message is read to its end but DATA is never answered, until the mode changes (then the held
   * transactions are answered as the new mode says: accepted ones are recorded, even when the client
   * gave up waiting meanwhile, which is how a lost reply turns into a duplicate) or until close().
   */
  | { kind: 'stall' };

export interface SmtpPeer {
  /** 'smtp://127.0.0.1:PORT': a nodemailer transport URL as it is (no STARTTLS is offered, so none is tried). */
  url: string;
  port: number;
  /** Every accepted message, in the order the peer accepted it. */
  messages: ReceivedMail[];
  /** How the next connections and transactions are answered; takes effect at once, held (stalled) ones included. */
  setMode(mode: PeerMode): void;
  /** Answers RCPT TO for `address` (compared case-insensitively) with `code message`, whatever the mode. */
  rejectRecipient(address: string, code: number, message: string): void;
  clearRecipientRules(): void;
  /** Resolves with `messages` once it holds `count` or more; rejects after `timeoutMs` (5 s by default). */
  waitForMessages(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** Message-ID → how many accepted messages carried it. */
  countByMessageId(): Map<string, number>;
  /** Connections accepted so far. */
  readonly connections: number;
  /** DATA transactions the stall mode holds unanswered right now. */
  readonly stalled: number;
  /** Closes the listening socket and cuts every open connection, as a server that went down: connecting is refused. */
  stopListening(): Promise<void>;
  /** Listens again on the same port. */
  resumeListening(): Promise<void>;
  /** Closes the server and destroys every open or stalled socket; never waits on a client. */
  close(): Promise<void>;
}

const HOST = '127.0.0.1';

/** A DATA transaction the stall mode holds: its message is in, its reply is not sent. */
interface Transaction {
  envelope: SMTPServerEnvelope;
  /** Which connection it came on: the client's port. */
  remotePort: number;
  raw: Buffer;
  answer: (err?: Error | null) => void;
}

function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * A local SMTP server on an ephemeral port whose answers a test sets at run time: accept, refuse at
 * MAIL FROM or at the greeting, per-recipient rejections, a connection dropped mid-DATA, a DATA never
 * answered, and no listener at all. Call close() in afterEach.
 */
export async function startSmtpPeer(options: { mode?: PeerMode } = {}): Promise<SmtpPeer> {
  let mode: PeerMode = options.mode ?? { kind: 'accept' };
  const recipientRules = new Map<string, { code: number; message: string }>();
  const messages: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  let held: Transaction[] = [];
  let waiters: (() => void)[] = [];
  let connections = 0;
  let closed = false;

  const cut = (remotePort: number) => {
    for (const socket of sockets) if (socket.remotePort === remotePort) socket.destroy();
  };
  const cutAll = () => {
    held = [];
    for (const socket of sockets) socket.destroy();
  };

  /** Answers a transaction whose message is in, as the current mode says. */
  const answer = (transaction: Transaction) => {
    switch (mode.kind) {
      case 'accept':
        messages.push(parseMail(transaction.raw, transaction.envelope));
        transaction.answer();
        for (const wake of waiters) wake();
        return;
      case 'refuse':
      case 'greet-refuse':
        transaction.answer(smtpError(mode.code, mode.message));
        return;
      case 'drop':
        cut(transaction.remotePort);
        return;
      case 'stall':
        held.push(transaction);
    }
  };

  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // Otherwise every connection waits on a reverse DNS query of 127.0.0.1.
    disableReverseLookup: true,
    // The peer never waits on its own clients: close() cuts them.
    closeTimeout: 1,
    onConnect(_session, callback) {
      callback(mode.kind === 'greet-refuse' ? smtpError(mode.code, mode.message) : null);
    },
    onMailFrom(_address, _session, callback) {
      callback(mode.kind === 'refuse' ? smtpError(mode.code, mode.message) : null);
    },
    onRcptTo(address, _session, callback) {
      const rule = recipientRules.get(address.address.toLowerCase());
      callback(rule ? smtpError(rule.code, rule.message) : null);
    },
    onData(stream: SMTPServerDataStream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (mode.kind === 'drop') cut(session.remotePort);
        else chunks.push(chunk);
      });
      // The stream errors when its client goes away mid-message; that transaction is simply over.
      stream.on('error', () => {});
      stream.on('end', () => {
        // The session is reset for the next transaction once DATA is answered; keep this one's envelope.
        const envelope = structuredClone(session.envelope);
        answer({ envelope, remotePort: session.remotePort, raw: Buffer.concat(chunks), answer: callback });
      });
    },
  });
  // Connection errors come from clients that hang up mid-transaction (timeouts, drops), which is what
  // the faults provoke; smtp-server re-emits them here, and an 'error' without a listener would throw.
  server.on('error', () => {});
  server.server.on('connection', (socket: Socket) => {
    connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      // The 'error' listener above would swallow a failed listen (EADDRINUSE): this one reports it.
      const onError = (error: Error) => {
        server.server.off('listening', onListening);
        reject(error);
      };
      const onListening = () => {
        server.server.off('error', onError);
        resolve();
      };
      server.server.once('error', onError).once('listening', onListening);
      server.listen(port, HOST);
    });
  /** Stops accepting and cuts what is open; resolves once the listening socket and every connection are gone. */
  const closeListener = async () => {
    const wasListening = server.server.listening;
    const done = wasListening ? once(server.server, 'close') : null;
    if (wasListening) server.server.close();
    cutAll();
    await done;
  };

  await listen(0);
  const port = (server.server.address() as AddressInfo).port;

  return {
    url: `smtp://${HOST}:${port}`,
    port,
    messages,
    setMode(next) {
      mode = next;
      const pending = held;
      held = [];
      for (const transaction of pending) answer(transaction);
    },
    rejectRecipient(address, code, message) {
      recipientRules.set(address.toLowerCase(), { code, message });
    },
    clearRecipientRules() {
      recipientRules.clear();
    },
    waitForMessages(count, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        if (messages.length >= count) return resolve(messages);
        if (closed)
          return reject(new Error(`SMTP peer is closed, with ${messages.length} of ${count} messages`));
        const wake = () => {
          if (closed)
            return finish(new Error(`SMTP peer closed with ${messages.length} of ${count} messages`));
          if (messages.length >= count) finish();
        };
        const timer = setTimeout(
          () => finish(new Error(`SMTP peer got ${messages.length} of ${count} messages in ${timeoutMs} ms`)),
          timeoutMs,
        );
        const finish = (error?: Error) => {
          clearTimeout(timer);
          waiters = waiters.filter((w) => w !== wake);
          if (error) reject(error);
          else resolve(messages);
        };
        waiters.push(wake);
      });
    },
    countByMessageId() {
      const counts = new Map<string, number>();
      for (const { messageId } of messages) {
        if (messageId !== null) counts.set(messageId, (counts.get(messageId) ?? 0) + 1);
      }
      return counts;
    },
    get connections() {
      return connections;
    },
    get stalled() {
      return held.length;
    },
    stopListening: closeListener,
    resumeListening: () => listen(port),
    async close() {
      if (closed) return;
      closed = true;
      for (const wake of waiters) wake();
      await closeListener();
      // Its listener and connections are gone already, so smtp-server's close() only clears its timers.
      await new Promise<void>((resolve) => server.close(resolve));
      // 'close' comes before the loop has released the listening handle; a timer runs after it has, so
      // a test that counts open handles once this resolves finds none of the peer's.
      await sleep(0);
    },
  };
}

// ——— Reading the message: headers and the text part are all a test needs, so no MIME library. ———

interface Entity {
  headers: Map<string, string>;
  /** The body as bytes in a latin1 string, so each part can be decoded with its own charset. */
  body: string;
}

function parseMail(raw: Buffer, envelope: SMTPServerEnvelope): ReceivedMail {
  // The line break before the final '.' ends the data whether the message had one or not (RFC 5321 §4.1.1.4).
  const root = parseEntity(raw.toString('latin1').replace(/\r?\n$/, ''));
  return {
    messageId: root.headers.get('message-id') ?? null,
    from: envelope.mailFrom ? envelope.mailFrom.address : '',
    to: envelope.rcptTo.map((recipient) => recipient.address),
    subject: decodeEncodedWords(root.headers.get('subject') ?? ''),
    text: textOf(root) ?? '',
    raw: raw.toString('utf8'),
  };
}

function parseEntity(source: string): Entity {
  const split = /\r?\n\r?\n/.exec(source);
  const head = split ? source.slice(0, split.index) : source;
  const body = split ? source.slice(split.index + split[0].length) : '';
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n(?=[ \t])/g, '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    // Raw header bytes are UTF-8 when they are not ASCII (RFC 6532).
    if (!headers.has(name)) headers.set(name, bytes(line.slice(colon + 1).trim()).toString('utf8'));
  }
  return { headers, body };
}

/** `text/plain; charset="utf-8"` → the lower-cased type and its parameters. */
function contentType(entity: Entity): { type: string; params: Map<string, string> } {
  const [type = '', ...rest] = (entity.headers.get('content-type') ?? 'text/plain').split(';');
  const params = new Map<string, string>();
  for (const param of rest) {
    const equals = param.indexOf('=');
    if (equals > 0) {
      const value = param.slice(equals + 1).trim();
      params.set(param.slice(0, equals).trim().toLowerCase(), value.replace(/^"(.*)"$/, '$1'));
    }
  }
  return { type: type.trim().toLowerCase(), params };
}

/** The first text/plain part that is not an attachment, decoded. */
function textOf(entity: Entity): string | null {
  const { type, params } = contentType(entity);
  const boundary = params.get('boundary');
  if (type.startsWith('multipart/') && boundary) {
    for (const part of partsOf(entity.body, boundary)) {
      const text = textOf(parseEntity(part));
      if (text !== null) return text;
    }
    return null;
  }
  if (type !== 'text/plain' || /^attachment/i.test(entity.headers.get('content-disposition') ?? ''))
    return null;
  const encoding = (entity.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  const text = decodeText(decodeTransfer(entity.body, encoding), params.get('charset') ?? 'utf-8');
  return text.replace(/\r\n/g, '\n');
}

function partsOf(body: string, boundary: string): string[] {
  const parts: string[] = [];
  let current: string[] | null = null;
  for (const line of body.split(/\r?\n/)) {
    const trimmed = line.trimEnd();
    if (trimmed === `--${boundary}--`) break;
    if (trimmed === `--${boundary}`) {
      if (current) parts.push(current.join('\r\n'));
      current = [];
    } else current?.push(line);
  }
  if (current) parts.push(current.join('\r\n'));
  return parts;
}

function bytes(latin1: string): Buffer {
  return Buffer.from(latin1, 'latin1');
}

function decodeTransfer(body: string, encoding: string): Buffer {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return bytes(body);
}

function decodeQuotedPrintable(text: string): Buffer {
  const unfolded = text.replace(/[ \t]*=\r?\n/g, '');
  return bytes(
    unfolded.replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
  );
}

function decodeText(data: Buffer, charset: string): string {
  try {
    return new TextDecoder(charset).decode(data);
  } catch {
    // An unknown charset label: UTF-8 is what nodemailer writes anyway.
    return data.toString('utf8');
  }
}

/** RFC 2047: `=?utf-8?Q?caf=C3=A9?=` and `=?utf-8?B?Y2Fmw6k=?=`; the space between two encoded words goes. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?)/g, '$1')
    .replace(
      /=\?([^?*]+)(?:\*[^?]*)?\?([BbQq])\?([^?]*)\?=/g,
      (_, charset: string, kind: string, text: string) => {
        const data =
          kind.toUpperCase() === 'B'
            ? Buffer.from(text, 'base64')
            : decodeQuotedPrintable(text.replace(/_/g, ' '));
        return decodeText(data, charset);
      },
    );
}
