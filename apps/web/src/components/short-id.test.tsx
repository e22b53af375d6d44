import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { plainId, ShortId, shortenId, shortIdLabels } from './short-id';

const uuid = '3f2b8c1d-5e6a-4b7c-8d9e-0f1a2b3c4d5e';
/** Like the role ids (the roles list passes formatRoleId): temp-ab12 reads #TEMPAB12. */
const formatTemp = (id: string) => `#TEMP${id.slice('temp-'.length).toUpperCase()}`;

describe('shortenId', () => {
  it('keeps the first characters and an ellipsis, or the whole text when that is no shorter', () => {
    expect(shortenId(`#${uuid}`, 9)).toBe('#3f2b8c1d…');
    expect(shortenId('#TEMPAB12', 9)).toBe('#TEMPAB12');
    expect(shortenId('#TEMPAB123', 9)).toBe('#TEMPAB123');
    expect(shortenId('TICKET-1764049179123', Infinity)).toBe('TICKET-1764049179123');
  });
});

describe('ShortId', () => {
  it('shows a long id short, with the whole id in a tooltip and for screen readers', async () => {
    const user = userEvent.setup();
    render(<ShortId id={uuid} />);
    const shown = screen.getByTestId('short-id');
    expect(shown.textContent).toBe('#3f2b8c1d…');
    // The short text is hidden from screen readers, which read the whole id instead; in-page search finds it.
    expect(shown.getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByText(`#${uuid}`)).not.toBeNull();
    await user.hover(shown);
    expect((await screen.findByRole('tooltip')).textContent).toContain(`#${uuid}`);
  });

  it('copies the stored id (not its display form) and says so', async () => {
    const user = userEvent.setup();
    render(<ShortId id="temp-ab12cd34ef56" format={formatTemp} />);
    expect(screen.getByTestId('short-id').textContent).toBe('#TEMPAB12…');
    expect(screen.getByText('#TEMPAB12CD34EF56')).not.toBeNull();
    await user.click(screen.getByRole('button', { name: `${shortIdLabels.copy} #TEMPAB12CD34EF56` }));
    expect(await navigator.clipboard.readText()).toBe('temp-ab12cd34ef56');
    expect(
      await screen.findByRole('button', { name: `${shortIdLabels.copied} #TEMPAB12CD34EF56` }),
    ).not.toBeNull();
  });

  it('shows a short id whole, once', () => {
    render(<ShortId id="temp-ab12" format={formatTemp} />);
    expect(screen.getAllByText('#TEMPAB12')).toHaveLength(1);
    expect(screen.queryByTestId('short-id')).toBeNull();
  });

  it('shows an id whole when asked, still with its copy button', () => {
    render(<ShortId id="TICKET-1764049179123" format={plainId} keep={Infinity} />);
    expect(screen.getByText('TICKET-1764049179123')).not.toBeNull();
    expect(screen.getByRole('button', { name: `${shortIdLabels.copy} TICKET-1764049179123` })).not.toBeNull();
  });
});
