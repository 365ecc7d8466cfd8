declare namespace App {
  interface Locals {
    /** Set once per page by routeData() (src/lib/route/data.ts); the layout and components read it. */
    route: import('./lib/route/data.ts').RouteData;
  }
}
