// Renders build/icon.svg into the raster icons electron-builder packages:
//   build/icon.png (1024, macOS converts it to .icns), build/icons/NxN.png (Linux hicolor set),
//   build/icon.ico (Windows), and build/file-icon.{png,ico,icns} for the .stl/.obj/.3mf documents.
// Chromium (via playwright-core) is the rasteriser because it is already installed for the e2e
// tests; each size is rendered from the vector at that size, which is sharper than downscaling.
// Run: node scripts/make-icons.ts   (the outputs are committed; rerun after editing icon.svg)
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const buildDir = join(import.meta.dirname, '..', 'build');
const appSvg = await readFile(join(buildDir, 'icon.svg'), 'utf8');

// The document icon reuses the app icon's motif (the <g id="motif"> group), so the two stay in step.
const motif = /<g id="motif"[\s\S]*?<\/g>/.exec(appSvg)?.[0];
if (!motif) throw new Error('build/icon.svg has no <g id="motif"> group');
const fileSvg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 1024">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#2f6fed"/><stop offset="1" stop-color="#6a4cf5"/></linearGradient></defs>
  <path d="M192 40h448l232 232v664a48 48 0 0 1-48 48H192a48 48 0 0 1-48-48V88a48 48 0 0 1 48-48z" fill="url(#bg)"/>
  <path d="M640 40v184a48 48 0 0 0 48 48h184z" fill="#fff" fill-opacity=".45"/>
  <g transform="translate(128 208) scale(.75)">${motif}</g>
</svg>`;

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
});
const page = await browser.newPage({ deviceScaleFactor: 1 });

async function render(svg: string, size: number): Promise<Buffer> {
  // Force the SVG's own width/height to the target so Chromium rasterises the vector at that size.
  const sized = svg.replace(/<svg\b[^>]*?(?=>)/, (tag) => `${tag.replace(/\s(width|height)="[^"]*"/g, '')} width="${size}" height="${size}"`);
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<!doctype html><style>html,body{margin:0;background:transparent}svg{display:block}</style>${sized}`);
  return page.screenshot({ omitBackground: true, clip: { x: 0, y: 0, width: size, height: size } });
}

// ICO: 6-byte header, a 16-byte entry per image, then the images. Entries may hold whole PNG files
// (Windows Vista+). Width/height bytes are 0 for 256.
function ico(images: Array<[number, Buffer]>): Buffer {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(1, 2); // type 1 = icon
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(([size, png], i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt16LE(1, entry + 4); // colour planes
    header.writeUInt16LE(32, entry + 6); // bits per pixel
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map(([, png]) => png)]);
}

// ICNS (macOS document icons must be .icns; electron-builder converts only the app icon itself):
// 'icns' + big-endian total length, then chunks of 4-char type + length + PNG data.
function icns(chunks: Array<[string, Buffer]>): Buffer {
  const parts = chunks.map(([type, png]) => {
    const head = Buffer.alloc(8);
    head.write(type, 0, 'latin1');
    head.writeUInt32BE(png.length + 8, 4);
    return Buffer.concat([head, png]);
  });
  const head = Buffer.alloc(8);
  head.write('icns', 0, 'latin1');
  head.writeUInt32BE(8 + parts.reduce((sum, part) => sum + part.length, 0), 4);
  return Buffer.concat([head, ...parts]);
}

try {
  await mkdir(join(buildDir, 'icons'), { recursive: true });
  const app = new Map<number, Buffer>();
  for (const size of [16, 32, 48, 64, 128, 256, 512, 1024]) app.set(size, await render(appSvg, size));
  await writeFile(join(buildDir, 'icon.png'), app.get(1024)!);
  for (const size of [16, 32, 48, 64, 128, 256, 512]) await writeFile(join(buildDir, 'icons', `${size}x${size}.png`), app.get(size)!);
  await writeFile(join(buildDir, 'icon.ico'), ico([16, 32, 48, 256].map((size) => [size, app.get(size)!])));

  const doc = new Map<number, Buffer>();
  for (const size of [16, 32, 48, 64, 128, 256, 512, 1024]) doc.set(size, await render(fileSvg, size));
  await writeFile(join(buildDir, 'file-icon.png'), doc.get(512)!);
  await writeFile(join(buildDir, 'file-icon.ico'), ico([16, 32, 48, 256].map((size) => [size, doc.get(size)!])));
  // Types: icp4/icp5 = 16/32, ic11..ic14 = 16..256 @2x, ic07..ic10 = 128..512 (@1x) and 1024.
  const types: Array<[string, number]> = [['icp4', 16], ['icp5', 32], ['ic11', 32], ['ic12', 64], ['ic07', 128], ['ic13', 256], ['ic08', 256], ['ic14', 512], ['ic09', 512], ['ic10', 1024]];
  await writeFile(join(buildDir, 'file-icon.icns'), icns(types.map(([type, size]) => [type, doc.get(size)!])));
} finally {
  await browser.close();
}
