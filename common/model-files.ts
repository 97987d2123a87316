// Which files are models PrintDesk takes, told by their names: one test for a drop, the file picker, the
// file dialog, "Open with" and the host's check before an upload. Their content is checked apart
// (electron/services/library/format-check.ts).

export const MODEL_EXTENSIONS = ['stl', 'obj', '3mf'] as const;
export type ModelExtension = (typeof MODEL_EXTENSIONS)[number];

/** The model format a file name claims ("Part.STL" → "stl"), or undefined when it is not a model's name. */
export function modelExtension(fileName: string): ModelExtension | undefined {
  const dot = fileName.lastIndexOf('.');
  const ext = dot === -1 ? '' : fileName.slice(dot + 1).toLowerCase();
  return (MODEL_EXTENSIONS as readonly string[]).includes(ext) ? (ext as ModelExtension) : undefined;
}

export const isModelFile = (fileName: string): boolean => modelExtension(fileName) !== undefined;

/** The file picker's `accept`: ".stl,.obj,.3mf". */
export const MODEL_FILE_ACCEPT = MODEL_EXTENSIONS.map((ext) => `.${ext}`).join(',');
