// The plate's grid says how big a model is, at any scale; an OBJ stands Y-up unless the user says otherwise.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildPlate, cellFor, PLATE_MM } from '../../renderer/viewer/plate.ts';
import { chooseUpAxis, upAxisFor } from '../../renderer/viewer/up-axis.ts';
import { formatPowerOfTen } from '../../renderer/lib/format.ts';

test('grid cells: at least five across the model, 10 mm for printer-sized parts, coarser for metres', () => {
  assert.deepEqual([0.16, 3, 6.4, 20, 24, 49, 50, 104, 256, 1000, 1500, 20_000].map(cellFor), [0.01, 0.1, 1, 1, 1, 1, 10, 10, 10, 10, 100, 1000]);
  assert.equal(cellFor(0), 10);
  assert.deepEqual([0.01, 0.1, 1, 10, 1000, 1e-4].map((mm) => formatPowerOfTen(mm)), ['0.01 mm', '0.1 mm', '1 mm', '10 mm', '1 m', '0.1 µm']);
  // In inches the cell is said as it is: a 10 mm grid does not become a round number.
  assert.deepEqual([10, 1].map((mm) => formatPowerOfTen(mm, 'in')), ['0.39 in', '0.039 in']);
});

test('the plate is a printer\'s for a printer-sized part, grows for a larger one, and shrinks with its cells', () => {
  const sizeOf = (plate: ReturnType<typeof buildPlate>) => (plate.group.children[0] as unknown as { geometry: { parameters: { width: number } } }).geometry.parameters.width;
  const printer = buildPlate(104, 104, 104);
  assert.equal(printer.cell, 10);
  assert.equal(sizeOf(printer), 260, 'the 256 mm plate, in whole cells');
  assert.ok(sizeOf(buildPlate(400, 100, 400)) >= 600);
  const tiny = buildPlate(0.16, 0.12, 0.16);
  assert.equal(tiny.cell, 0.01);
  assert.ok(Math.abs(sizeOf(tiny) - 0.4) < 1e-9, '40 cells of 0.01 mm');
  for (const plate of [printer, tiny]) plate.dispose();
  assert.equal(PLATE_MM, 256);
});

test('OBJ is Y-up and STL and 3MF Z-up by default, and a choice is kept per content', () => {
  const kept = new Map<string, string>();
  const storage = { getItem: (key: string) => kept.get(key) ?? null, setItem: (key: string, value: string) => void kept.set(key, value), removeItem: (key: string) => void kept.delete(key) };
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
  try {
    assert.equal(upAxisFor(null, 'obj'), 'y');
    assert.equal(upAxisFor('AB', 'stl-binary'), 'z');
    assert.equal(upAxisFor('ab', '3mf'), 'z');
    chooseUpAxis('AB', 'obj', 'z');
    assert.equal(upAxisFor('ab', 'obj'), 'z', 'kept by hash, whatever its case');
    assert.equal(upAxisFor('cd', 'obj'), 'y', 'other content keeps the default');
    chooseUpAxis('ab', 'obj', 'y');
    assert.equal(kept.size, 0, 'choosing the default forgets the choice');
  } finally {
    Reflect.deleteProperty(globalThis, 'localStorage');
  }
});
