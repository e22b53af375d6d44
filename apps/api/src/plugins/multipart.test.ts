import { describe, expect, it } from 'vitest';
import { cleanFileName } from './multipart.js';

describe('cleanFileName', () => {
  it('drops the path, control characters and quotes', () => {
    expect(cleanFileName('C:\\Users\\me\\re"port\u0007.pdf')).toBe('report.pdf');
    expect(cleanFileName('../../etc/passwd')).toBe('passwd');
    expect(cleanFileName('   ')).toBe('file');
  });
});
