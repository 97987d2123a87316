// A new order's blank recipient and contents: what the order form starts from (and tests and benchmarks seed with).
import type { OrderContent, Recipient } from '../../electron/contract/schemas/orders.ts';

export const emptyRecipient = (): Recipient => ({
  firstName: '',
  lastName: '',
  streetAddress: '',
  postal: '',
  city: '',
  country: '',
  countryState: '',
  phoneNumber: '',
  email: '',
});

export const emptyOrderContent = (): OrderContent => ({ ConfigIds: [], ExternalConfigIds: [], StockIds: [] });
