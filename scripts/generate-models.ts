// Generated model files for benchmarks and tests: large closed meshes in every format, and deliberately
// broken files. Nothing here is stored in the repo; `node scripts/generate-models.ts [dir]` writes them
// (default: <tmpdir>/printdesk-models).
import { zipSync, strToU8 } from 'fflate';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Mesh {
  vertices: Float32Array;
  triangles: Uint32Array;
}

/**
 * A closed, watertight torus grid: 2·u·v triangles around the z axis, centred at (100, 100, 30) so it sits
 * on a build plate. Its volume approaches 2π²Rr² as the grid gets finer.
 */
export function torus(u: number, v: number, major = 40, minor = 12): Mesh {
  const vertices = new Float32Array(u * v * 3);
  for (let i = 0; i < u; i++) {
    const a = (2 * Math.PI * i) / u;
    for (let j = 0; j < v; j++) {
      const b = (2 * Math.PI * j) / v;
      const k = (i * v + j) * 3;
      vertices[k] = 100 + (major + minor * Math.cos(b)) * Math.cos(a);
      vertices[k + 1] = 100 + (major + minor * Math.cos(b)) * Math.sin(a);
      vertices[k + 2] = 30 + minor * Math.sin(b);
    }
  }
  const triangles = new Uint32Array(u * v * 6);
  let t = 0;
  for (let i = 0; i < u; i++) {
    for (let j = 0; j < v; j++) {
      const a = i * v + j, b = ((i + 1) % u) * v + j, c = ((i + 1) % u) * v + ((j + 1) % v), d = i * v + ((j + 1) % v);
      triangles.set([a, b, c, a, c, d], t);
      t += 6;
    }
  }
  return { vertices, triangles };
}

/** Grid size for roughly `count` triangles. */
export function torusWith(count: number): Mesh {
  const v = Math.max(3, Math.round(Math.sqrt(count / 4)));
  return torus(Math.max(3, Math.round(count / (2 * v))), v);
}

/**
 * The mesh with its triangles in a seeded random order: how a mesh is written after boolean operations,
 * remeshing or a scan's repair, where a triangle's neighbours come anywhere in the file.
 */
export function inNoOrder(mesh: Mesh, seed = 1): Mesh {
  const triangles = mesh.triangles.slice();
  let x = seed >>> 0 || 1;
  for (let t = triangles.length / 3 - 1; t > 0; t--) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    const other = (x >>> 0) % (t + 1);
    for (let k = 0; k < 3; k++) [triangles[t * 3 + k], triangles[other * 3 + k]] = [triangles[other * 3 + k], triangles[t * 3 + k]];
  }
  return { vertices: mesh.vertices, triangles };
}

export function binaryStl(mesh: Mesh, header = 'PrintDesk generated'): Uint8Array {
  const count = mesh.triangles.length / 3;
  const bytes = new Uint8Array(84 + 50 * count);
  bytes.set(strToU8(header.slice(0, 80)));
  const view = new DataView(bytes.buffer);
  view.setUint32(80, count, true);
  const [a, b, c] = [0, 1, 2].map(() => new Float64Array(3));
  for (let t = 0; t < count; t++) {
    for (let k = 0; k < 3; k++) {
      const v = mesh.triangles[t * 3 + k] * 3;
      for (let axis = 0; axis < 3; axis++) {
        view.setFloat32(84 + t * 50 + 12 + k * 12 + axis * 4, mesh.vertices[v + axis], true);
        [a, b, c][k][axis] = mesh.vertices[v + axis];
      }
    }
    // The facet's unit normal, as real files carry it (our reader ignores it; admesh's volume uses it).
    const n = [(b[1] - a[1]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[1] - a[1]), (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]), (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])];
    const length = Math.hypot(n[0], n[1], n[2]) || 1;
    for (let axis = 0; axis < 3; axis++) view.setFloat32(84 + t * 50 + axis * 4, n[axis] / length, true);
  }
  return bytes;
}

/** Text built in chunks so that a 250 MB file never becomes one giant string. */
function textFile(lines: (emit: (text: string) => void) => void): Uint8Array {
  const chunks: Uint8Array[] = [];
  let pending: string[] = [];
  let size = 0;
  const flush = () => {
    const chunk = strToU8(pending.join(''));
    chunks.push(chunk);
    size += chunk.length;
    pending = [];
  };
  lines((text) => {
    pending.push(text);
    if (pending.length >= 65536) flush();
  });
  flush();
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

const f = (value: number) => value.toExponential(6);

export function asciiStl(mesh: Mesh): Uint8Array {
  return textFile((emit) => {
    emit('solid generated\n');
    for (let t = 0; t < mesh.triangles.length; t += 3) {
      emit('  facet normal 0.000000e+00 0.000000e+00 0.000000e+00\n    outer loop\n');
      for (let k = 0; k < 3; k++) {
        const v = mesh.triangles[t + k] * 3;
        emit(`      vertex ${f(mesh.vertices[v])} ${f(mesh.vertices[v + 1])} ${f(mesh.vertices[v + 2])}\n`);
      }
      emit('    endloop\n  endfacet\n');
    }
    emit('endsolid generated\n');
  });
}

export function obj(mesh: Mesh): Uint8Array {
  return textFile((emit) => {
    emit('# generated\no torus\n');
    for (let v = 0; v < mesh.vertices.length; v += 3) emit(`v ${mesh.vertices[v].toFixed(6)} ${mesh.vertices[v + 1].toFixed(6)} ${mesh.vertices[v + 2].toFixed(6)}\n`);
    for (let t = 0; t < mesh.triangles.length; t += 3) emit(`f ${mesh.triangles[t] + 1} ${mesh.triangles[t + 1] + 1} ${mesh.triangles[t + 2] + 1}\n`);
  });
}

export function meshXml(mesh: Mesh, attributes = ''): string {
  const parts: string[] = ['<mesh><vertices>\n'];
  for (let v = 0; v < mesh.vertices.length; v += 3) parts.push(`<vertex x="${mesh.vertices[v]}" y="${mesh.vertices[v + 1]}" z="${mesh.vertices[v + 2]}" />\n`);
  parts.push('</vertices><triangles>\n');
  for (let t = 0; t < mesh.triangles.length; t += 3) parts.push(`<triangle v1="${mesh.triangles[t]}" v2="${mesh.triangles[t + 1]}" v3="${mesh.triangles[t + 2]}"${attributes} />\n`);
  parts.push('</triangles></mesh>');
  return parts.join('');
}

const RELS = '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="/3D/3dmodel.model" Id="rel0" Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel" /></Relationships>';
const CONTENT_TYPES = '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml" /><Default Extension="model" ContentType="application/vnd.ms-package.3dmanufacturing-3dmodel+xml" /></Types>';
export const CORE_NS = 'http://schemas.microsoft.com/3dmanufacturing/core/2015/02';
export const PRODUCTION_NS = 'http://schemas.microsoft.com/3dmanufacturing/production/2015/06';

/** A package from model-part XML by path; `_rels/.rels` and content types are added. */
export function package3mf(parts: Record<string, string | Uint8Array>, rels = RELS): Uint8Array {
  const files: Record<string, Uint8Array> = { '[Content_Types].xml': strToU8(CONTENT_TYPES), '_rels/.rels': strToU8(rels) };
  for (const [path, content] of Object.entries(parts)) files[path] = typeof content === 'string' ? strToU8(content) : content;
  return zipSync(files, { level: 6 });
}

export function threeMf(mesh: Mesh, unit = 'millimeter'): Uint8Array {
  const xml = textFile((emit) => {
    emit(`<?xml version="1.0" encoding="UTF-8"?>\n<model unit="${unit}" xmlns="${CORE_NS}"><resources><object id="1" type="model">`);
    emit(meshXml(mesh));
    emit('</object></resources><build><item objectid="1" /></build></model>');
  });
  return package3mf({ '3D/3dmodel.model': xml });
}

if (import.meta.main) {
  const dir = process.argv[2] ?? join(tmpdir(), 'printdesk-models');
  mkdirSync(dir, { recursive: true });
  const million = torusWith(1_000_000);
  writeFileSync(join(dir, 'torus-1m-binary.stl'), binaryStl(million));
  writeFileSync(join(dir, 'torus-1m-ascii.stl'), asciiStl(million));
  writeFileSync(join(dir, 'torus-1m.obj'), obj(million));
  writeFileSync(join(dir, 'torus-1m.3mf'), threeMf(million));
  writeFileSync(join(dir, 'torus-5m-binary.stl'), binaryStl(torusWith(5_000_000)));
  console.log(`wrote generated models to ${dir}`);
}
