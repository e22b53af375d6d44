import { describe, expect, it } from 'vitest';
import { ATTACHMENT_MIME_TYPES, attachmentKind, TICKET_TEXT_TYPE, ticketRequestLabels } from './support.js';

describe("a ticket's type, as the list shows it", () => {
  it('names every accepted attachment by its kind, and no attachment as None', () => {
    expect(ATTACHMENT_MIME_TYPES.map(attachmentKind)).toEqual(['PDF', 'Word', 'Word', 'Image', 'Image']);
    expect(attachmentKind(TICKET_TEXT_TYPE)).toBe('None');
    expect(attachmentKind('application/zip')).toBe('Other');
  });

  it('names the request in the same case', () => {
    expect(Object.values(ticketRequestLabels)).toEqual(['Feedback', 'Call back']);
    for (const label of [...Object.values(ticketRequestLabels), 'PDF', 'Word', 'Image', 'None']) {
      expect(label[0]).toBe(label[0]!.toUpperCase());
    }
  });
});
