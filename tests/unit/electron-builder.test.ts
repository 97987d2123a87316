// electron-builder.yml, checked without packaging (Electron's binary cannot be downloaded in CI).
// Besides reading the YAML, it runs electron-builder's own code where that needs no downloads: its
// schema validation, its icon resolver for the Linux set and the Windows .ico, and its file
// matchers, to see which files would go into app.asar and which would be unpacked.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import type { Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import type { Configuration } from 'app-builder-lib';
import { validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { convertIcon } from 'app-builder-lib/out/util/iconConverter.js';
import * as fileMatcher from 'app-builder-lib/out/fileMatcher.js';

const root = path.join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { productName: string; main: string };
const config = parse(fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Configuration;
const buildDir = path.join(root, config.directories?.buildResources ?? 'build');

/** Width and height from a PNG's IHDR chunk (bytes 16..24), after checking the signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  assert.ok(png.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'not a PNG');
  assert.equal(png.toString('latin1', 12, 16), 'IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The images of an ICO file: the size in its directory entry and the payload (PNG here). */
function icoImages(ico: Buffer): Array<{ size: number; data: Buffer }> {
  assert.equal(ico.readUInt16LE(0), 0, 'ICO reserved field');
  assert.equal(ico.readUInt16LE(2), 1, 'ICO type must be 1 (icon)');
  return Array.from({ length: ico.readUInt16LE(4) }, (_, i) => {
    const entry = 6 + 16 * i;
    const offset = ico.readUInt32LE(entry + 12);
    return { size: ico[entry] || 256, data: ico.subarray(offset, offset + ico.readUInt32LE(entry + 8)) };
  });
}

/** Target names of a platform section, whether written as strings or as { target, arch }. */
function targets(section: { target?: unknown } | null | undefined): string[] {
  const list = [section?.target ?? []].flat() as Array<string | { target: string }>;
  return list.map((entry) => (typeof entry === 'string' ? entry : entry.target));
}

function archs(section: { target?: unknown } | null | undefined, name: string): string[] {
  const list = [section?.target ?? []].flat() as Array<string | { target: string; arch?: string | string[] }>;
  const entry = list.find((item) => typeof item !== 'string' && item.target === name);
  return typeof entry === 'object' ? [entry.arch ?? []].flat() : [];
}

// getMainFileMatchers and getNodeModuleFileMatcher are @internal (absent from the .d.ts) but are
// exactly what electron-builder uses to pick app files; a minimal stand-in for its Packager suffices.
type Filter = (file: string, stat: Stats) => boolean;
type Matcher = { createFilter(): Filter };
const internals = fileMatcher as unknown as {
  getMainFileMatchers(appDir: string, dest: string, expand: (s: string) => string, options: object, packager: object, outDir: string, electronCompile: boolean): Matcher[];
  getNodeModuleFileMatcher(appDir: string, dest: string, expand: (s: string) => string, options: object, packager: object): Matcher;
  getFileMatchers: typeof fileMatcher.getFileMatchers;
};
const info = { projectDir: root, buildResourcesDir: buildDir, config: structuredClone(config), isPrepackedAppAsar: false, debugLogger: { isEnabled: false } };
const expand = (pattern: string) => pattern;
const outDir = path.join(root, config.directories?.output ?? 'dist');
const fileStat = (relative: string) => ({ isDirectory: () => false, moduleFullFilePath: relative }) as unknown as Stats;

function packagedAppFile(relative: string): boolean {
  const [main] = internals.getMainFileMatchers(root, '/app', expand, {}, { info }, outDir, false);
  return main.createFilter()(path.join(root, relative), fileStat(''));
}
function packagedModuleFile(relative: string): boolean {
  return internals.getNodeModuleFileMatcher(root, '/app', expand, {}, info).createFilter()(path.join(root, relative), fileStat(relative));
}
function unpackedFromAsar(relative: string): boolean {
  const matchers = internals.getFileMatchers(structuredClone(config), 'asarUnpack', '/app', { macroExpander: expand, customBuildOptions: {}, globalOutDir: outDir, defaultSrc: root });
  return (matchers ?? []).some((matcher) => matcher.createFilter()(path.join(root, relative), fileStat('')));
}

describe('electron-builder.yml', () => {
  it('passes electron-builder\'s own configuration validation', async () => {
    const logger = { isEnabled: false, add() {} } as never;
    await validateConfiguration(structuredClone(config), logger);
    // The validator is live: an unknown key is rejected.
    await assert.rejects(validateConfiguration({ ...structuredClone(config), bogusOption: true } as Configuration, logger), /unknown property 'bogusOption'/);
  });

  it('names the app like package.json does', () => {
    assert.equal(config.appId, 'com.printdesk.app');
    assert.equal(config.productName, pkg.productName);
    assert.match(String(config.copyright), /PrintDesk/);
    assert.deepEqual(config.directories, { output: 'release', buildResources: 'build' });
    assert.equal(config.publish, null);
  });

  it('starts the built main process', () => {
    // dist/ may not be built yet, so only the path is checked; scripts/build.ts writes it.
    assert.equal(config.extraMetadata?.main, 'dist/electron/main.mjs');
    assert.equal(pkg.main, config.extraMetadata?.main);
  });

  it('packages the build output and leaves sources, tests and maps out', () => {
    assert.ok((config.files as string[]).includes('dist/**/*'));
    assert.ok((config.files as string[]).includes('!**/*.map'));
    for (const file of ['dist/electron/main.mjs', 'dist/electron/preload.cjs', 'dist/renderer/index.html', 'package.json', 'build/icon.png']) {
      assert.ok(packagedAppFile(file), `${file} should be packaged`);
    }
    for (const file of ['dist/electron/main.mjs.map', 'dist/.build-stamp', 'electron/shell/main.ts', 'renderer/main.ts', 'tests/unit/electron-builder.test.ts', 'scripts/build.ts', 'build/icon.svg', 'build/icon.ico', 'electron-builder.yml', 'vite.config.ts', 'tsconfig.json']) {
      assert.ok(!packagedAppFile(file), `${file} should not be packaged`);
    }
    assert.ok(packagedModuleFile('node_modules/better-sqlite3/lib/index.js'));
    assert.ok(!packagedModuleFile('node_modules/node/bin/node'), 'the Node toolchain dependency stays out');
    assert.ok(!packagedModuleFile('node_modules/better-sqlite3/deps/sqlite3/sqlite3.c'));
    assert.ok(!packagedModuleFile('node_modules/zod/index.js.map'));
  });

  it('unpacks better-sqlite3 from the asar and needs no native rebuild', () => {
    assert.ok((config.asarUnpack as string[]).includes('node_modules/better-sqlite3/**'));
    assert.ok(unpackedFromAsar('node_modules/better-sqlite3/prebuilds/linux-x64.node'));
    assert.ok(!unpackedFromAsar('dist/electron/main.mjs'));
    // npmRebuild: false is only safe while better-sqlite3 ships a Node-API prebuild for every target.
    assert.equal(config.npmRebuild, false);
    for (const prebuild of ['linux-x64', 'win32-x64', 'win32-arm64', 'darwin-x64', 'darwin-arm64']) {
      assert.ok(packagedModuleFile(`node_modules/better-sqlite3/prebuilds/${prebuild}.node`));
      assert.ok(fs.existsSync(path.join(root, 'node_modules/better-sqlite3/prebuilds', `${prebuild}.node`)), `no ${prebuild} prebuild`);
    }
  });

  it('builds AppImage and deb, NSIS for x64 and arm64, and dmg', () => {
    assert.deepEqual(targets(config.linux).sort(), ['AppImage', 'deb']);
    assert.deepEqual(targets(config.win), ['nsis']);
    assert.deepEqual(archs(config.win, 'nsis').sort(), ['arm64', 'x64']);
    assert.deepEqual(targets(config.mac), ['dmg']);
    assert.ok(archs(config.mac, 'dmg').length > 0);
    assert.ok(config.deb?.depends?.includes('libsecret-1-0'), 'safeStorage needs libsecret on Linux');
    assert.equal(config.nsis?.oneClick, false);
    assert.equal(config.nsis?.allowToChangeInstallationDirectory, true);
  });

  it('associates .stl, .obj and .3mf, with document icons for Windows and macOS', () => {
    const associations = [config.fileAssociations ?? []].flat();
    assert.deepEqual(associations.map((association) => association.ext).sort(), ['3mf', 'obj', 'stl']);
    for (const association of associations) {
      assert.equal(association.mimeType, `model/${association.ext}`);
      assert.equal(association.role, 'Viewer');
      assert.ok(association.name);
      // electron-builder looks up <icon>.ico on Windows and <icon>.icns on macOS in the build resources.
      const ico = fs.readFileSync(path.join(buildDir, `${association.icon}.ico`));
      assert.ok(icoImages(ico).some((image) => image.size === 256));
      const icns = fs.readFileSync(path.join(buildDir, `${association.icon}.icns`));
      assert.equal(icns.toString('latin1', 0, 4), 'icns');
      assert.equal(icns.readUInt32BE(4), icns.length);
    }
  });

  it('refers only to icons that exist and are large enough', async () => {
    const png = fs.readFileSync(path.join(root, String(config.mac?.icon)));
    const { width, height } = pngSize(png);
    assert.ok(width >= 512 && width === height, `macOS icon is ${width}x${height}`);

    const ico = fs.readFileSync(path.join(root, String(config.win?.icon)));
    const images = icoImages(ico);
    assert.deepEqual(images.map((image) => image.size), [16, 32, 48, 256]);
    for (const image of images) assert.deepEqual(pngSize(image.data), { width: image.size, height: image.size });

    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      const file = path.join(root, String(config.linux?.icon), `${size}x${size}.png`);
      assert.deepEqual(pngSize(fs.readFileSync(file)), { width: size, height: size });
    }

    // The same resolution electron-builder does at packaging time (neither case needs its icon tool).
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'printdesk-icons-'));
    try {
      const roots = [buildDir, root];
      const set = await convertIcon({ sources: [String(config.linux?.icon)], fallbackSources: [], roots, format: 'set', outDir: tmp });
      assert.deepEqual(set.icons.map((icon) => icon.size), [16, 32, 48, 64, 128, 256, 512]);
      const win = await convertIcon({ sources: [String(config.win?.icon)], fallbackSources: [], roots, format: 'ico', outDir: tmp });
      assert.deepEqual(win.icons.map((icon) => icon.size), [256]);
      assert.equal(win.isFallback, false);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it('flips the fuses that would let whoever starts the app run code of their own through it', () => {
    assert.deepEqual(config.electronFuses, {
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      enableCookieEncryption: true,
    });
    assert.notEqual(config.asar, false, 'onlyLoadAppFromAsar needs an app.asar');
  });

  it('signs macOS builds with the hardened runtime and the JIT entitlement', () => {
    assert.equal(config.mac?.hardenedRuntime, true);
    assert.equal(config.mac?.category, 'public.app-category.productivity');
    for (const file of [config.mac?.entitlements, config.mac?.entitlementsInherit]) {
      const plist = fs.readFileSync(path.join(root, String(file)), 'utf8');
      assert.match(plist, /<key>com\.apple\.security\.cs\.allow-jit<\/key>\s*<true\/>/);
    }
  });
});
