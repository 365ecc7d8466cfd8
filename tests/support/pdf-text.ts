// The text of a PDF as a reader's printer lays it out: each page's size and every run of text with
// its position and width, in PDF points (1/72 in), read with pdfjs (Mozilla's PDF reader). For the
// print tests: whether any text starts or ends outside the page's content box.
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface PdfRun {
  page: number;
  text: string;
  x: number;
  y: number;
  width: number;
}
export interface PdfText {
  pages: Array<{ width: number; height: number }>;
  runs: PdfRun[];
}

export async function pdfText(data: Uint8Array): Promise<PdfText> {
  const task = getDocument({ data: new Uint8Array(data), useSystemFonts: false });
  const doc = await task.promise;
  const pages: PdfText['pages'] = [];
  const runs: PdfRun[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const [, , width, height] = page.view as [number, number, number, number];
    pages.push({ width, height });
    for (const item of (await page.getTextContent()).items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      runs.push({
        page: n,
        text: item.str,
        x: item.transform[4] as number,
        y: item.transform[5] as number,
        width: item.width,
      });
    }
  }
  await task.destroy();
  return { pages, runs };
}
