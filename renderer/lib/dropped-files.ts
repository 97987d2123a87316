// Files from a drop, folders walked, kept to the formats PrintDesk uploads (the host checks again).
import { isModelFile } from '../../common/model-files.ts';

export async function filesFromDrop(transfer: DataTransfer): Promise<{ files: File[]; skipped: string[] }> {
  const entries = [...transfer.items].map((item) => item.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry => !!e);
  const all: File[] = [];
  if (entries.length) for (const entry of entries) await walk(entry, all, 0);
  else all.push(...transfer.files);
  return modelFiles(all);
}

/** The model files among those given, and the names of the others, left out (to say so). */
export function modelFiles(list: FileList | readonly File[] | null): { files: File[]; skipped: string[] } {
  const all = [...(list ?? [])];
  const files = all.filter((f) => isModelFile(f.name));
  return { files, skipped: all.filter((f) => !isModelFile(f.name)).map((f) => f.name) };
}

/** "notes.txt", "notes.txt and a.png", "notes.txt, a.png and 3 more": files named, a long list cut short. */
export function someNames(names: readonly string[], shown = 3): string {
  if (names.length <= 1) return names[0] ?? '';
  if (names.length <= shown) return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

/**
 * The files a picker was given, and the picker emptied: a browser fires no change event when the same
 * file is picked again, so a second import of one file would otherwise do nothing at all.
 */
export function takePicked(input: HTMLInputElement): File[] {
  const files = [...(input.files ?? [])];
  input.value = '';
  return files;
}

async function walk(entry: FileSystemEntry, out: File[], depth: number): Promise<void> {
  if (entry.isFile) {
    out.push(await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject)));
    return;
  }
  // Deep trees are walked, but not without end (a link loop).
  if (!entry.isDirectory || depth > 16) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, out, depth + 1);
  }
}
