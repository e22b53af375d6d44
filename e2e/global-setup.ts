import { apiAs, SELLER_TAX_PROFILE } from './fixtures';

/**
 * Once per run, after Playwright has started the portal (its webServer comes up before global
 * setup): the super administrator sets the seller's tax details, without which no payment can be
 * recorded, since every payment issues a tax invoice.
 */
export default async function globalSetup() {
  const root = await apiAs();
  try {
    await root.put('/auth/tax-profile', SELLER_TAX_PROFILE);
  } finally {
    await root.dispose();
  }
}
