// Which models of the open library PrintDesk could not read in full (found when their thumbnail was
// drawn): a quote or an order for one of them says so, as the service may refuse to print it.
import { SvelteMap } from 'svelte/reactivity';
import { unreadableReason, whenAnyUnreadable } from '../../viewer/thumbnails.ts';
import { library } from './library.svelte.ts';

const found = new SvelteMap<string, string>();
whenAnyUnreadable((sha256, reason) => found.set(sha256, reason));

/** Why the model's file cannot be read, if it was tried and failed; undefined otherwise or when unknown. */
export function unreadableModel(modelId: string, sha256?: string | null): string | undefined {
  const hash = (sha256 ?? library.models.find((m) => m.modelId === modelId)?.sha256)?.toLowerCase();
  return hash ? (found.get(hash) ?? unreadableReason(hash)) : undefined;
}
