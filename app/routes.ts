import { type RouteConfig, index, route } from "@react-router/dev/routes";

export default [
  index("routes/home.tsx", { id: "home-index" }),
  route("home", "routes/home.tsx"),
  route("placeholder/:kind/:name", "routes/placeholder.tsx"),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
