// Writes a valid binary STL of about the given size (84 + 50 × n bytes) for benchmarks, in
// 1 MiB batches so generating a huge file costs no more memory than a small one.
//   node scripts/generate-stl.ts <out.stl> [megabytes=250] [seed=1]
import { open } from 'node:fs/promises';

const FACETS_PER_BATCH = 20_000;

export async function generateBinaryStl(file: string, targetBytes: number, seed = 1): Promise<number> {
  const facets = Math.max(1, Math.floor((targetBytes - 84) / 50));
  const header = Buffer.alloc(84);
  header.write(`PrintDesk benchmark STL, seed ${seed}`, 0, 'ascii');
  header.writeUInt32LE(facets, 80);
  const handle = await open(file, 'w');
  try {
    await handle.write(header);
    const batch = Buffer.alloc(50 * FACETS_PER_BATCH);
    let x = seed >>> 0 || 1;
    for (let written = 0; written < facets; written += FACETS_PER_BATCH) {
      const count = Math.min(FACETS_PER_BATCH, facets - written);
      for (let i = 0; i < count; i++) {
        // Twelve floats (normal and three vertices) from a xorshift, attribute bytes zero.
        for (let f = 0; f < 12; f++) {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          batch.writeFloatLE(((x >>> 0) / 4294967296) * 100, i * 50 + f * 4);
        }
      }
      await handle.write(batch, 0, 50 * count);
    }
  } finally {
    await handle.close();
  }
  return 84 + 50 * facets;
}

if (process.argv[1] === import.meta.filename) {
  const [out, megabytes = '250', seed = '1'] = process.argv.slice(2);
  if (!out) {
    console.error('Usage: node scripts/generate-stl.ts <out.stl> [megabytes=250] [seed=1]');
    process.exitCode = 2;
  } else {
    const size = await generateBinaryStl(out, Number(megabytes) * 1_000_000, Number(seed));
    console.log(`${out}: ${size} bytes`);
  }
}
