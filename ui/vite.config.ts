/// <reference types="vitest/config" />
import { defineConfig, type Plugin } from 'vite';

const DEV_PORT = 1420;

// The CSP in index.html is the app's. `vite dev` also needs its HMR websocket, so the
// dev server (only) widens connect-src; builds keep the strict policy.
function devCsp(): Plugin {
  return {
    name: 'pagetree-dev-csp',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace(
        'connect-src ipc: http://ipc.localhost',
        `connect-src ipc: http://ipc.localhost ws://localhost:${DEV_PORT} ws://127.0.0.1:${DEV_PORT}`,
      );
    },
  };
}

// Tauri conventions: relative asset paths, a fixed dev port the shell points at
// (devUrl http://localhost:1420), and no screen clearing so the shell's output stays
// visible when both run in one terminal.
export default defineConfig({
  base: './',
  clearScreen: false,
  plugins: [devCsp()],
  server: {
    port: DEV_PORT,
    strictPort: true,
    watch: { ignored: ['**/src-tauri/**'] },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The webviews Tauri 2 uses (WebKitGTK, WebView2, WKWebView) all handle ES2021.
    target: 'es2021',
    sourcemap: false,
  },
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
