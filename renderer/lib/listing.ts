/**
 * `shown` followed by the models of `more` it does not hold yet. A model added or removed between the
 * requests for two pages shifts the rest by one, so a page can repeat the last model of the one before.
 */
export function appendNew<T extends { modelId: string }>(shown: readonly T[], more: readonly T[]): T[] {
  const listed = new Set(shown.map((m) => m.modelId));
  const added = more.filter((m) => !listed.has(m.modelId) && (listed.add(m.modelId), true));
  return [...shown, ...added];
}
