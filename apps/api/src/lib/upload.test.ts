import { describe, expect, it } from 'vitest';
import { ATTACHMENT_MIME_TYPES, PROFILE_IMAGE_MIME_TYPES } from '@portal/shared';
import {
  CFB_BYTES,
  DOCX_BYTES,
  EXE_BYTES,
  HTML_BYTES,
  JPEG_BYTES,
  PDF_BYTES,
  PNG_BYTES,
  ZIP_BYTES,
} from '../../test/upload-fixtures.js';
import { detectAllowedType } from './upload.js';

describe('detectAllowedType (by content, not by name)', () => {
  it.each([
    ['report.pdf', PDF_BYTES, 'application/pdf'],
    ['letter.docx', DOCX_BYTES, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
    ['letter.doc', CFB_BYTES, 'application/msword'],
    ['photo.png', PNG_BYTES, 'image/png'],
    ['photo.jpg', JPEG_BYTES, 'image/jpeg'],
  ])('accepts %s as %s', async (name, data, mime) => {
    expect(await detectAllowedType(data, name, ATTACHMENT_MIME_TYPES)).toBe(mime);
  });

  it.each([
    ['invoice.pdf', EXE_BYTES],
    ['invoice.pdf', HTML_BYTES],
    ['notes.docx', ZIP_BYTES],
    ['sheet.xls', CFB_BYTES],
    ['empty.pdf', Buffer.alloc(0)],
  ])('refuses %s whose content is not an allowed type', async (name, data) => {
    expect(await detectAllowedType(data, name, ATTACHMENT_MIME_TYPES)).toBeNull();
  });

  it('allows only images for a profile picture', async () => {
    expect(await detectAllowedType(PNG_BYTES, 'me.png', PROFILE_IMAGE_MIME_TYPES)).toBe('image/png');
    expect(await detectAllowedType(PDF_BYTES, 'me.png', PROFILE_IMAGE_MIME_TYPES)).toBeNull();
  });
});
