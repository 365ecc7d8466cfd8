// Every content file is a collection. The loaders (src/lib/content/loaders.ts) validate each
// entry with its schema (src/lib/content/schemas.ts) and report problems at file:line:column;
// `problems` holds what the cross-file rules found. The schemas given here only carry the
// stored types for getCollection(): the data was validated by the loader that stored it.
import { defineCollection } from 'astro:content';
import { z } from 'astro/zod';
import { contentDir } from './lib/content/dir.ts';
import { pageSchema } from './lib/content/schemas.ts';
import { PATHS, readSite, readSources, readBackends, readAxes, readExcerpts, readEvidence } from './lib/content/read.ts';
import type { SiteEntry, SourceEntry, BackendEntry, AxisEntry, ExcerptEntry, EvidenceEntry } from './lib/content/read.ts';
import type { Problem } from './lib/content/errors.ts';
import { yamlCollection, pagesCollection, problemsCollection } from './lib/content/loaders.ts';

const byId = (e: { id: string }) => e.id;

export const collections = {
  site: defineCollection({
    loader: yamlCollection('site', contentDir, PATHS.site, readSite, () => 'site'),
    schema: z.custom<SiteEntry>(),
  }),
  sources: defineCollection({
    loader: yamlCollection('sources', contentDir, PATHS.sources, readSources, byId),
    schema: z.custom<SourceEntry>(),
  }),
  backends: defineCollection({
    loader: yamlCollection('backends', contentDir, PATHS.backends, readBackends, byId),
    schema: z.custom<BackendEntry>(),
  }),
  axes: defineCollection({
    loader: yamlCollection('axes', contentDir, PATHS.axes, readAxes, byId),
    schema: z.custom<AxisEntry>(),
  }),
  excerpts: defineCollection({
    loader: yamlCollection('excerpts', contentDir, PATHS.excerpts, readExcerpts, (e) => `${e.source}/${e.id}`),
    schema: z.custom<ExcerptEntry>(),
  }),
  evidence: defineCollection({
    loader: yamlCollection('evidence', contentDir, PATHS.evidence, (dir) => readEvidence(dir), byId),
    schema: z.custom<EvidenceEntry>(),
  }),
  pages: defineCollection({ loader: pagesCollection(contentDir), schema: pageSchema }),
  problems: defineCollection({ loader: problemsCollection(contentDir), schema: z.custom<{ list: Problem[] }>() }),
};
