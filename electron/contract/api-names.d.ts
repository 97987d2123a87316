import type { ApiNames } from './bridge-api.ts';

declare global {
  /** Injected by scripts/build.ts from contract.ts, so the preloads need not bundle zod. */
  const PRINTDESK_API_NAMES: ApiNames;
  /** contract.ts's GRANT_PATH_CHANNEL, injected the same way. */
  const PRINTDESK_GRANT_PATH_CHANNEL: string;
}
