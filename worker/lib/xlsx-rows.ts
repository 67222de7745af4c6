/**
 * A small XLSX reader for previews (pure): unzips with fflate, reads the first worksheet's cells
 * (shared strings, inline strings, numbers, booleans; formulas give their cached value) into rows of
 * text. Dates stay Excel serial numbers and styles are ignored: a preview, not a spreadsheet engine.
 * Entries larger than 20 MB uncompressed are refused (zip bombs).
 */
import { strFromU8, unzipSync } from "fflate";
import { decodeEntities } from "./html-text";
import { err, ok, type Result } from "./result";

/** Largest uncompressed workbook part read. */
const MAX_PART_BYTES = 20 * 1024 * 1024;

function texts(xml: string): string {
  return [...xml.matchAll(/<t\b[^>]*>([\s\S]*?)<\/t>/g)].map((m) => decodeEntities(m[1] ?? "")).join("");
}

function columnIndex(ref: string): number {
  const letters = /^[A-Z]+/.exec(ref)?.[0] ?? "A";
  let n = 0;
  for (const ch of letters) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

function firstSheetPath(parts: Record<string, Uint8Array>): string | undefined {
  const workbook = parts["xl/workbook.xml"];
  const rels = parts["xl/_rels/workbook.xml.rels"];
  if (workbook && rels) {
    const sheet = /<sheet\b[^>]*\br:id="([^"]+)"/.exec(strFromU8(workbook));
    const id = sheet?.[1];
    if (id) {
      for (const m of strFromU8(rels).matchAll(/<Relationship\b[^>]*>/g)) {
        const tag = m[0];
        if (tag.includes(`Id="${id}"`)) {
          const target = /Target="([^"]+)"/.exec(tag)?.[1];
          if (target) return target.startsWith("/") ? target.slice(1) : `xl/${target}`;
        }
      }
    }
  }
  return Object.keys(parts).find((p) => /^xl\/worksheets\/[^/]+\.xml$/.test(p));
}

/** Reads up to `maxRows` rows of the first worksheet; `totalRows` counts every row element. */
export function readXlsxRows(bytes: Uint8Array, maxRows: number): Result<{ rows: string[][]; totalRows: number }> {
  let parts: Record<string, Uint8Array>;
  try {
    parts = unzipSync(bytes, {
      filter: (f) =>
        f.originalSize <= MAX_PART_BYTES &&
        (f.name === "xl/workbook.xml" ||
          f.name === "xl/_rels/workbook.xml.rels" ||
          f.name === "xl/sharedStrings.xml" ||
          f.name.startsWith("xl/worksheets/")),
    });
  } catch (error) {
    return err("invalid_input", `not a readable XLSX file: ${error instanceof Error ? error.message : String(error)}`);
  }
  const sheetPath = firstSheetPath(parts);
  const sheet = sheetPath ? parts[sheetPath] : undefined;
  if (!sheet) return err("invalid_input", "not a readable XLSX file: no worksheet found");
  const sharedXml = parts["xl/sharedStrings.xml"];
  const shared = sharedXml
    ? [...strFromU8(sharedXml).matchAll(/<si\b[^>]*>([\s\S]*?)<\/si>/g)].map((m) => texts(m[1] ?? ""))
    : [];
  const rows: string[][] = [];
  let totalRows = 0;
  for (const rowMatch of strFromU8(sheet).matchAll(/<row\b[^>]*?(?:\/>|>([\s\S]*?)<\/row>)/g)) {
    totalRows++;
    if (rows.length >= maxRows) continue;
    const row: string[] = [];
    for (const cell of (rowMatch[1] ?? "").matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g)) {
      const attrs = cell[1] ?? "";
      const inner = cell[2] ?? "";
      const ref = /\br="([A-Z]+)\d+"/.exec(attrs)?.[1];
      const type = /\bt="([^"]+)"/.exec(attrs)?.[1];
      const raw = /<v>([\s\S]*?)<\/v>/.exec(inner)?.[1];
      let value = "";
      if (type === "s") value = shared[Number(raw)] ?? "";
      else if (type === "inlineStr") value = texts(inner);
      else if (type === "b") value = raw === "1" ? "TRUE" : "FALSE";
      else if (raw !== undefined) value = decodeEntities(raw);
      const at = ref ? columnIndex(ref) : row.length;
      while (row.length < at) row.push("");
      row[at] = value;
    }
    rows.push(row);
  }
  return ok({ rows, totalRows });
}
