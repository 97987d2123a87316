// Models dragged from the library's table onto a folder. The ids travel in a type of our own, so a drag
// of models is never taken for files dropped from the desktop (those carry "Files"), and the reverse.
const MODELS = 'application/x-printdesk-models';

export function startModelDrag(event: DragEvent, modelIds: readonly string[]): void {
  if (!event.dataTransfer) return;
  event.dataTransfer.setData(MODELS, JSON.stringify(modelIds));
  event.dataTransfer.effectAllowed = 'move';
}

/** Whether the drag carries models (its data can only be read at the drop). */
export const carriesModels = (event: DragEvent): boolean => event.dataTransfer?.types.includes(MODELS) ?? false;

/** Whether the drag carries files from outside the app. */
export const carriesFiles = (event: DragEvent): boolean => event.dataTransfer?.types.includes('Files') ?? false;

export function droppedModels(event: DragEvent): string[] {
  try {
    const ids: unknown = JSON.parse(event.dataTransfer?.getData(MODELS) || '[]');
    return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}
