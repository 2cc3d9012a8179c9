import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { precompress } from './scripts/precompress.ts'

export default defineConfig({
  root: 'runtime',
  publicDir: '../public',
  // Every asset also as .br and .gz, served as they are (scripts/precompress.ts, issue #18).
  plugins: [react(), precompress()],
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry imports statically is loaded on every page anyway: one chunk rather
            // than the dozens of shared slivers the lazy routes would otherwise cut it into (each its own
            // request, each compressed alone). It is index.html's script.
            { name: 'app', tags: ['$initial'] },
          ],
        },
      },
    },
  },
  server: {
    port: Number(process.env.VITE_PORT ?? 5173),
    proxy: { '/api': `http://127.0.0.1:${process.env.API_PORT ?? 3001}` },
  },
})
