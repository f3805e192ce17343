import type { Config } from "@react-router/dev/config";

export default {
  ssr: true,
  // React Router 8's behaviour, taken early; docs/decisions/0030-react-router-v8-flags.md says why two wait.
  future: {
    v8_viteEnvironmentApi: true,
    v8_splitRouteModules: true,
    v8_trailingSlashAwareDataRequests: true,
    v8_middleware: false,
    v8_passThroughRequests: false,
  },
} satisfies Config;
