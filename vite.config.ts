import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'vite';

// The renderer only. base './' because Electron loads it from file://.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [svelte({ configFile: false })],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    target: 'chrome130',
    sourcemap: true,
    reportCompressedSize: false,
    // three.js is one lazily loaded chunk of its own (~700 kB), loaded only when a preview opens.
    chunkSizeWarningLimit: 900,
  },
});
