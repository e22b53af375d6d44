import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startSmtpPeer, type SmtpPeer } from './smtp-peer.js';

/** The peer itself, driven by nodemailer as the portal's mailer drives a real server. */

let peer: SmtpPeer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

async function start(...args: Parameters<typeof startSmtpPeer>): Promise<SmtpPeer> {
  peer = await startSmtpPeer(...args);
  return peer;
}

/**
 * Sends through a transport built from the peer's URL, as createMailer builds one from SMTP_URL; the
 * transport's settings go in the URL's query, since nodemailer ignores the other options next to a `url`.
 */
function send(
  target: SmtpPeer,
  mail: Partial<nodemailer.SendMailOptions> = {},
  settings: Record<string, string | number> = {},
): Promise<SMTPTransport.SentMessageInfo> {
  const url = new URL(target.url);
  for (const [name, value] of Object.entries(settings)) url.searchParams.set(name, String(value));
  const transport = nodemailer.createTransport(url.toString());
  return transport.sendMail({
    from: 'portal@t.test',
    to: 'customer@t.test',
    subject: 'Hello',
    text: 'Body',
    ...mail,
  });
}

/** What a refused send rejects with: nodemailer's error, its SMTP reply code and error code. */
async function failure(sending: Promise<unknown>): Promise<{ responseCode?: number; code?: string }> {
  const error: unknown = await sending.then(
    () => expect.fail('the send was expected to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as { responseCode?: number; code?: string };
}

/** The open TCP handles of this process, by kind. */
function tcpHandles(): string[] {
  return process.getActiveResourcesInfo().filter((kind) => kind.startsWith('TCP'));
}

describe('SMTP peer', () => {
  it('accepts a message and records it with its Message-ID, envelope, subject and decoded text', async () => {
    const target = await start();
    expect(target.url).toBe(`smtp://127.0.0.1:${target.port}`);
    // A long line and '=' make nodemailer write quoted-printable; the subject goes as encoded words.
    const link = `https://portal.t.test/auth/reset-password?token=${'a1'.repeat(60)}`;
    const info = await send(target, { subject: 'Réinitialiser — ₹ 1,180', text: `Open ${link}\nThanks` });

    expect(info.accepted).toEqual(['customer@t.test']);
    expect(target.messages).toHaveLength(1);
    expect(target.messages[0]).toMatchObject({
      messageId: info.messageId,
      from: 'portal@t.test',
      to: ['customer@t.test'],
      subject: 'Réinitialiser — ₹ 1,180',
      text: `Open ${link}\nThanks`,
    });
    expect(target.messages[0]!.raw).toMatch(/^Content-Transfer-Encoding: quoted-printable/m);
    expect(target.connections).toBe(1);
  });

  it('finds the text part of a message with an attachment, and decodes it from base64', async () => {
    const target = await start();
    // Mostly non-ASCII, so nodemailer writes it in base64.
    const text = 'नमस्ते,\nआपका चालान संलग्न है।\n';
    await send(target, {
      text,
      attachments: [
        {
          filename: 'invoice.pdf',
          content: Buffer.from('%PDF-1.7 not really'),
          contentType: 'application/pdf',
        },
      ],
    });
    expect(target.messages[0]!.text).toBe(text);
    expect(target.messages[0]!.raw).toMatch(/^Content-Type: multipart\/mixed/m);
    expect(target.messages[0]!.raw).toMatch(/^Content-Transfer-Encoding: base64/m);
  });

  it('refuses every MAIL FROM with the code of the refuse mode', async () => {
    const target = await start();
    target.setMode({ kind: 'refuse', code: 421, message: 'Try again later' });
    expect(await failure(send(target))).toMatchObject({ responseCode: 421, command: 'MAIL FROM' });
    target.setMode({ kind: 'refuse', code: 554, message: 'Transaction failed' });
    expect(await failure(send(target))).toMatchObject({ responseCode: 554, command: 'MAIL FROM' });

    target.setMode({ kind: 'accept' });
    await send(target);
    expect(target.messages).toHaveLength(1);
  });

  it('refuses at the greeting, then closes', async () => {
    const target = await start({ mode: { kind: 'greet-refuse', code: 421, message: 'Too busy' } });
    expect(await failure(send(target))).toMatchObject({ responseCode: 421, command: 'CONN' });
    expect(target.connections).toBe(1);
    expect(target.messages).toHaveLength(0);
  });

  it('answers a recipient rule at RCPT TO, and accepts the others of the message', async () => {
    const target = await start();
    target.rejectRecipient('Gone@T.test', 550, 'No such user');
    expect(await failure(send(target, { to: 'gone@t.test' }))).toMatchObject({
      responseCode: 550,
      command: 'RCPT TO',
    });

    const info = await send(target, { to: ['gone@t.test', 'here@t.test'] });
    expect(info.rejected).toEqual(['gone@t.test']);
    expect(target.messages.map((m) => m.to)).toEqual([['here@t.test']]);

    target.clearRecipientRules();
    await send(target, { to: 'gone@t.test' });
    expect(target.messages.map((m) => m.to)).toEqual([['here@t.test'], ['gone@t.test']]);
  });

  it('drops the connection in the middle of DATA: the send errors instead of hanging', async () => {
    const target = await start({ mode: { kind: 'drop' } });
    // Bigger than one chunk, so the connection is cut while the message is still coming.
    const sending = send(target, { text: 'x'.repeat(2_000_000) }, { socketTimeout: 10_000 });
    expect(await failure(sending)).toHaveProperty('code');
    expect(target.messages).toHaveLength(0);

    target.setMode({ kind: 'accept' });
    await send(target);
    expect(target.messages).toHaveLength(1);
  });

  it('stalls DATA until the client times out; the held message is accepted once the mode changes', async () => {
    const target = await start({ mode: { kind: 'stall' } });
    const info = send(target, { messageId: '<stalled@t.test>' }, { socketTimeout: 500 });
    expect(await failure(info)).toMatchObject({ code: 'ETIMEDOUT' });
    expect(target.stalled).toBe(1);
    expect(target.messages).toHaveLength(0);

    // The reply was lost, not the message: the mail arrives although its sender saw a failure.
    target.setMode({ kind: 'accept' });
    expect(target.stalled).toBe(0);
    expect(await target.waitForMessages(1)).toMatchObject([{ messageId: '<stalled@t.test>' }]);
  });

  it('answers a held DATA as the new mode says while its client still waits', async () => {
    const target = await start({ mode: { kind: 'stall' } });
    const sending = send(target);
    await expect.poll(() => target.stalled).toBe(1);
    target.setMode({ kind: 'refuse', code: 451, message: 'Local error' });
    expect(await failure(sending)).toMatchObject({ responseCode: 451, command: 'DATA' });
    expect(target.messages).toHaveLength(0);
  });

  it('refuses connections while it is not listening, and takes them again on the same port', async () => {
    const target = await start();
    const port = target.port;
    await target.stopListening();
    expect(await failure(send(target))).toMatchObject({ code: 'ESOCKET' });
    await expect(send(target)).rejects.toThrow(/ECONNREFUSED/);
    expect(target.connections).toBe(0);

    await target.resumeListening();
    expect(target.port).toBe(port);
    await send(target);
    expect(target.messages).toHaveLength(1);
    expect(target.connections).toBe(1);
  });

  it('counts the messages that came more than once by Message-ID', async () => {
    const target = await start();
    await send(target, { messageId: '<twice@t.test>' });
    await send(target, { messageId: '<once@t.test>' });
    await send(target, { messageId: '<twice@t.test>' });
    expect(target.countByMessageId()).toEqual(
      new Map([
        ['<twice@t.test>', 2],
        ['<once@t.test>', 1],
      ]),
    );
  });

  it('waits for messages, and says how many came when they do not', async () => {
    const target = await start();
    const waiting = target.waitForMessages(2);
    await send(target);
    await send(target);
    expect(await waiting).toHaveLength(2);
    await expect(target.waitForMessages(3, 50)).rejects.toThrow('SMTP peer got 2 of 3 messages in 50 ms');
  });

  it('closes at once with a stalled client, and leaves no socket open', async () => {
    const before = tcpHandles();
    const target = await start({ mode: { kind: 'stall' } });
    // Its failure is awaited after close(); the handler is on from the start.
    const sending = failure(send(target, {}, { socketTimeout: 60_000 }));
    await expect.poll(() => target.stalled).toBe(1);

    const started = performance.now();
    await target.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    // The client sees its connection go, instead of waiting for its own timeout.
    expect(await sending).toMatchObject({ code: 'ECONNECTION' });
    await expect(target.waitForMessages(1)).rejects.toThrow('SMTP peer is closed');
    // At most as many as before: the files before this one in the worker (isolate: false) may still be closing theirs.
    await expect.poll(() => tcpHandles().length).toBeLessThanOrEqual(before.length);
  });
});
