// The words of a link-preview card (src/lib/preview-image.ts) without the renderer, for the
// pages' alt text: light enough to import into any page.
import { LAB_RUNS_LABEL, PROVENANCE_LABEL, type AxisModel, type TableModel } from './view/model.ts';
import { plainText } from './markdown.ts';

/** A cell's short answer as the card shows it, after "Expected:" while it is still to measure. */
export const shortWords = (cell: AxisModel['cells'][number]): string =>
  `${cell.provenance === 'to-measure' ? 'Expected: ' : ''}${plainText(cell.shortHtml)}`;

/** An axis page's link-preview text: each backend's short answer, which a preview shows whole (the
 *  axis summary ran to 700-1100 characters, cut off by every preview). */
export const axisDescription = (axis: AxisModel): string =>
  `${axis.cells.map((c) => `${c.backend.name}: ${shortWords(c)}`).join('; ')}.`;

/** Alt text for an axis's card: everything it shows, as words. */
export const axisAlt = (axis: AxisModel): string =>
  `${axis.question}. ` +
  axis.cells
    .map(
      (c) =>
        `${c.backend.name} (${c.backend.run ? 'run in the lab' : 'read, not run'}): ${shortWords(c)} ${PROVENANCE_LABEL[c.provenance]}.`,
    )
    .join(' ');

/** Alt text for a cell's card: everything it shows, as words. */
export const cellAlt = (axis: AxisModel, cell: AxisModel['cells'][number]): string =>
  `${cell.backend.name} (${cell.backend.run ? 'run in the lab' : 'read, not run'}): ${axis.question}. ` +
  `${shortWords(cell)} ${cellBadgeWords(cell)}.`;

/** What a cell's card puts in its badge: its kind, and that the lab ran a cited cell too. */
export const cellBadgeWords = (cell: AxisModel['cells'][number]): string =>
  `${PROVENANCE_LABEL[cell.provenance]}${cell.runs ? `; ${LAB_RUNS_LABEL}` : ''}`;

/** The questions the home card lists: all of them up to six, else five and how many more. */
export function homeQuestions(model: TableModel): string[] {
  const qs = model.axes.map((r) => r.question);
  return qs.length <= 6 ? qs : [...qs.slice(0, 5), `and ${qs.length - 5} more axes`];
}

export const homeAlt = (model: TableModel): string =>
  `${model.site.title}. ${model.backends.map((b) => (b.run ? b.name : `${b.name} (read, not run)`)).join(', ')} compared on ` +
  `${model.axes.length} axes, each cell marked how it knows: ` +
  `${(['measured', 'to-measure', 'cited'] as const).map((p) => `${model.counts[p]} ${PROVENANCE_LABEL[p]}`).join(', ')}. ` +
  `The axes: ${homeQuestions(model).join('; ')}.`;
