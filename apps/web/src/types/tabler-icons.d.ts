// Per-icon entry points of @tabler/icons-react (the package ships types only for its barrel file).
// Importing icons one by one keeps the dev server and the tests from loading all 6,000 icons.
declare module "@tabler/icons-react/dist/esm/icons/*.mjs" {
  const icon: import("@tabler/icons-react").TablerIcon;
  export default icon;
}
