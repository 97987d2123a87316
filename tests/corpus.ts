// The shared corpus of real model files (../shared/corpus beside the project), for every test that reads one.
import { join, resolve } from 'node:path';

export const CORPUS = resolve(import.meta.dirname, '..', '..', 'shared', 'corpus');

export const corpusFile = (...parts: string[]) => join(CORPUS, ...parts);
