import { workspaceTag } from "../../workspaces/index.js";
import type { StoredAccount, WorkspaceSeed } from "../store/payments-store.js";

/** Two accounts per currency (TRY, USD, EUR), so every currency has somewhere to pay to. */
export function seedWorkspace(apiKey: string): WorkspaceSeed {
  const tag = workspaceTag(apiKey);
  const account = (suffix: string, name: string, currency: string, balanceMinor: number): StoredAccount => ({
    id: `acc_${tag}${suffix}`,
    name,
    currency,
    balanceMinor,
  });
  return {
    workspace: apiKey,
    accounts: [
      account("try1", "Ayşe Yılmaz Vadesiz TRY", "TRY", 250_000_000),
      account("try2", "Kaya Tekstil A.Ş. TRY", "TRY", 50_000_000),
      account("usd1", "Ayşe Yılmaz USD", "USD", 1_000_000),
      account("usd2", "Kaya Tekstil A.Ş. USD", "USD", 500_000),
      account("eur1", "Ayşe Yılmaz EUR", "EUR", 800_000),
      account("eur2", "Kaya Tekstil A.Ş. EUR", "EUR", 300_000),
    ],
  };
}
