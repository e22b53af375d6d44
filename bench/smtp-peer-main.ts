// The API tests' SMTP peer in a process of its own, forked by smtp-peer-process.ts; it answers the
// bench over IPC. Not imported by anything: the fork runs it.
import { startSmtpPeer } from '../apps/api/test/smtp-peer.js';
import type { PeerReply, PeerRequest } from './smtp-peer-process.js';

const peer = await startSmtpPeer();
const reply = (message: PeerReply) => process.send!(message);

process.on('message', (request: PeerRequest) => {
  switch (request.type) {
    case 'count':
      reply({ type: 'count', id: request.id, count: peer.messages.length });
      return;
    case 'waitFor':
      // The peer wakes its waiters as it records a message: `at` is when the last one arrived.
      peer.waitForMessages(request.count, request.timeoutMs).then(
        (messages) => reply({ type: 'reached', id: request.id, at: Date.now(), count: messages.length }),
        (error: Error) => reply({ type: 'failed', id: request.id, message: error.message }),
      );
      return;
    case 'close':
      void peer.close().then(() => process.exit(0));
  }
});
// The bench went away without closing it (killed, crashed): nobody is left to ask.
process.on('disconnect', () => void peer.close().then(() => process.exit(0)));

reply({ type: 'ready', url: peer.url });
