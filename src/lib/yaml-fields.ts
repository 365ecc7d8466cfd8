// A quoted kep.yaml passage as fields, for a definition list (Excerpt.astro): the pinned lines are
// YAML, so they read as "key: value" pairs rather than as run-on prose in quotation marks. Comment
// lines (the KEP template's own explanations) are kept apart, in order, to be shown as they are.
import { parse } from 'yaml';

export type YamlValue = string | YamlValue[] | { key: string; value: YamlValue }[];

export interface YamlFields {
  comments: string[];
  /** A mapping's fields, or a list's items. */
  fields: YamlValue;
}

function toValue(v: unknown): YamlValue {
  if (Array.isArray(v)) return v.map(toValue);
  if (v !== null && typeof v === 'object')
    return Object.entries(v).map(([key, value]) => ({ key, value: toValue(value) }));
  // A key with no value (`beta:`) is shown empty, as written, not as "null".
  return v === null || v === undefined ? '' : String(v);
}

/** The fields of a YAML quote, or undefined when it is not a mapping or a list (it is then shown as a quote). */
export function yamlFields(quote: string): YamlFields | undefined {
  let data: unknown;
  try {
    data = parse(quote);
  } catch {
    return undefined;
  }
  if (data === null || typeof data !== 'object') return undefined;
  const comments = quote
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('#'))
    .map((l) => l.replace(/^#\s*/, ''));
  return { comments, fields: toValue(data) };
}
