import { data } from "react-router";

// Placeholder until this page is built.
export function loader() {
  throw data(null, { status: 404 });
}

export default function Page() {
  return null;
}
