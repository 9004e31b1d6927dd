import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The dev server proxies the API and media to a server started with `npm run server` (port 3000).
export default defineConfig({
  plugins: [react()],
  server: {
    proxy: { '/api': 'http://localhost:3000', '/media': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    chunkSizeWarningLimit: 1500,
  },
});
