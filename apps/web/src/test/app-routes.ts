// The app's routes for component tests, with the lazy signed-in shell and the page loader's module
// imported up front: their first import transforms much of the app, which would otherwise eat into the
// first test's time.
import { routes } from "../app/router.tsx";

await Promise.all([import("../app/signed-in-shell.tsx"), import("../app/app-page.tsx")]);

export { routes };
