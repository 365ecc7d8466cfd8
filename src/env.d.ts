// What a page hands to the components it renders through Astro.locals (route data).
declare namespace App {
  interface Locals {
    /** The figures an MDX page can embed with <Figure id="…" />, each with how to show it. */
    figures?: Map<string, import('./lib/figures/index.ts').PlacedFigure>;
  }
}
