// Where the text a reader produced stands on its pages: plain data, so it crosses back from the reader's process.

/**
 * A run of the text placed on its page: `[start, end)` offsets in the text read, and its box as fractions of the
 * page's width and height, origin top left; `confidence` (0-1) for a word read by OCR.
 */
export interface PlacedRun {
  start: number;
  end: number;
  x: number;
  y: number;
  width: number;
  height: number;
  confidence?: number;
}

export interface PageLayout {
  /** Offsets in the text read where the page's text starts and ends (pages are parted by an empty line). */
  start: number;
  end: number;
  /** The page's number (from 1) when it is not its place in `pages` (a part of a file: its pages in the file). */
  number?: number;
  /** The page's runs in text order. */
  runs: PlacedRun[];
}

/** The layout of a file's text: one entry per page, in page order. */
export interface TextLayout {
  pages: PageLayout[];
}
