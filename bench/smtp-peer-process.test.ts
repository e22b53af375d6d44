import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { startPeerProcess } from './smtp-peer-process.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the SMTP peer in its own process', () => {
  it('counts what it accepted, tells when it holds a number of messages, and exits on close', async () => {
    const peer = await startPeerProcess();
    const transport = nodemailer.createTransport(peer.url);
    try {
      const reached = peer.waitFor(3, 10_000);
      const sent = Date.now();
      for (let i = 0; i < 3; i++) {
        await transport.sendMail({ from: 'a@bench.test', to: `b${i}@bench.test`, subject: 's', text: 't' });
      }
      expect(await reached).toBeGreaterThanOrEqual(sent);
      expect(await peer.count()).toBe(3);
      await expect(peer.waitFor(4, 200)).rejects.toThrow(/3 of 4 messages/);
    } finally {
      transport.close();
      await peer.close();
    }
    expect(alive(peer.pid)).toBe(false);
    await expect(peer.count()).rejects.toThrow(/exited/);
  });
});
