// What `npm run build` reads besides node_modules: npm start rebuilds when any of it is newer than the build.
export const buildInputs = [
  "app",
  "server",
  "db",
  "platform",
  "public",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "scripts/build-server.mjs",
  "scripts/compress-assets.mjs",
  "vite.config.ts",
  "react-router.config.ts",
];
